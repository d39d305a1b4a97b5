// The root container the use cases' @injectable() decorators registered their classes into. A composition root builds
// its child containers from this one, never from a `tsyringe` of its own: where versions differ, npm gives each package
// its own copy, and another copy has no type info for these classes ("TypeInfo not known", issue 42). Exported for the
// composition root only; the use cases themselves never resolve from it.
// eslint-disable-next-line no-restricted-imports
export { container as useCaseContainer, type DependencyContainer } from 'tsyringe';
