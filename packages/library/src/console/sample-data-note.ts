/** The first line of every report of a run that used the embedded sample data because no source flag was given. @public */
export const sampleDataNote = (stage: number, source: string): string =>
  `NOTE: no data was given (no --stage${stage}-data-path, no cloud source): this run used the embedded sample data, ${source}`;
