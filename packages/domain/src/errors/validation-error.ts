/** A configuration value that breaks a rule; `field` names the flag or field. @public */
export interface ValidationIssue {
  readonly field: string;
  readonly message: string;
}

/** Renders issues as one message per line, each naming its field. @public */
export const formatIssues = (issues: readonly ValidationIssue[]): string =>
  issues.map((i) => `${i.field}: ${i.message}`).join('\n');
