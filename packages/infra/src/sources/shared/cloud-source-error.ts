/** Why a cloud source could not be built or filled; `message` names the flag, bucket/object or table. @public */
export interface CloudSourceError {
  readonly kind: 'missing-client' | 'invalid-identifier' | 'empty' | 'transfer' | 'cache';
  readonly message: string;
}

/** The error value as an exception, for port methods that can only reject. @public */
export class CloudSourceFailure extends Error {
  constructor(readonly error: CloudSourceError) {
    super(error.message);
    this.name = 'CloudSourceFailure';
  }
}
