/** An ECharts option as plain JSON data (no functions: it travels inside the HTML file). @public */
export type ChartOption = Readonly<Record<string, unknown>>;

/** One plot of a report. @public */
export interface ChartSpec {
  /** stable id, used as the element id `chart-<id>` that tests and readers can find */
  readonly id: string;
  readonly title: string;
  readonly caption: string;
  readonly option: ChartOption;
  readonly height?: number;
}

/** A table rendered as text cells (never as HTML). @public */
export interface TableSpec {
  readonly id: string;
  readonly title: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly (string | number | null)[])[];
  /** shown instead of an empty table */
  readonly emptyText: string;
}

/** Everything one HTML report shows; rendered client-side from embedded JSON. @public */
export interface ReportPage {
  readonly title: string;
  readonly subtitle: string;
  readonly facts: readonly (readonly [string, string])[];
  readonly charts: readonly ChartSpec[];
  readonly tables: readonly TableSpec[];
  /** the original payload, kept in the file so a reader can recover the numbers */
  readonly payload: unknown;
}
