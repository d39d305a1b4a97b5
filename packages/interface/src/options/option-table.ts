/**
 * A command's flags as data: yargs reads the table (`y.options(table)`), and the types of the parsed values are derived
 * from the same table, so the two cannot drift apart. The shape is a subset of yargs' `Options`.
 * @public
 */
export interface OptionSpec {
  readonly type: 'number' | 'string' | 'boolean';
  readonly describe: string;
  readonly array?: boolean;
  readonly default?: unknown;
  readonly demandOption?: boolean;
  readonly choices?: readonly string[];
  /** the heading it shows under in `--help` */
  readonly group?: string;
  /** a value flag given without its value is a usage error, not the default (every number and string flag) */
  readonly requiresArg?: boolean;
}

/** A command's flag table, keyed by the kebab-case flag name. @public */
export type OptionTable = Readonly<Record<string, OptionSpec>>;

// Number and string flags require their value: `--batch-size` at the end of the line is an error, not the default.
// Extras (a default, `array: true`, a group) are spread in beside a helper inside an `as const` table, so their literal
// types reach `RawOptions`: `{ ...num('rows'), default: 3 }`.
/** A number flag. @public */
export const num = (describe: string) => ({ type: 'number', describe, requiresArg: true }) as const;
/** A string flag. @public */
export const str = (describe: string) => ({ type: 'string', describe, requiresArg: true }) as const;
/** A boolean flag. @public */
export const flag = (describe: string) => ({ type: 'boolean', describe }) as const;

/** Flag makers whose flags all show under one heading of `--help`. @public */
export const optionGroup = (group: string) => ({
  num: (describe: string) => ({ type: 'number', describe, group, requiresArg: true }) as const,
  str: (describe: string) => ({ type: 'string', describe, group, requiresArg: true }) as const,
  flag: (describe: string) => ({ type: 'boolean', describe, group }) as const,
});

type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;
type Scalar<O> = O extends { readonly type: 'number' }
  ? number
  : O extends { readonly type: 'string' }
    ? string
    : boolean;
type Value<O> = O extends { readonly array: true } ? readonly Scalar<O>[] : Scalar<O>;
type Filled<O> = O extends { readonly default: unknown }
  ? true
  : O extends { readonly demandOption: true }
    ? true
    : false;

/**
 * What a table's flags may hold before any check, every one optional: the input of the interface's validators.
 * Keys are the camelCase of the flags, as yargs hands them over.
 * @public
 */
export type RawOptions<T> = { readonly [K in keyof T as CamelCase<K & string>]?: Value<T[K]> };

/** What yargs hands a handler: flags with a default or `demandOption` are always present. @public */
export type ParsedOptions<T> = RawOptions<T> & {
  readonly [K in keyof T as Filled<T[K]> extends true ? CamelCase<K & string> : never]-?: Value<T[K]>;
};
