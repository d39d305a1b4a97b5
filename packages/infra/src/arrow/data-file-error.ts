/** Where in a data file a problem sits; every field that is known is named in the message. @public */
export interface DataFileLocation {
  readonly path: string;
  readonly column?: string;
  readonly row?: number;
  readonly byteOffset?: number;
  readonly batch?: number;
}

/** A data file that cannot be read as the expected records. @public */
export class DataFileError extends Error {
  constructor(
    readonly location: DataFileLocation,
    readonly detail: string,
  ) {
    const where = [
      `file ${location.path}`,
      location.batch !== undefined ? `record batch ${location.batch}` : '',
      location.column !== undefined ? `column ${location.column}` : '',
      location.row !== undefined ? `row ${location.row}` : '',
      location.byteOffset !== undefined ? `byte offset ${location.byteOffset}` : '',
    ].filter(Boolean);
    super(`${where.join(', ')}: ${detail}`);
    this.name = 'DataFileError';
  }
}
