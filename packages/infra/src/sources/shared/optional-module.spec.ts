import { loadOptionalModule, requireModule } from './optional-module';

describe('loadOptionalModule', () => {
  it('given a client package that is not installed, when loaded, then the error says which flag needs it and how to install it', async () => {
    const r = await loadOptionalModule('@maou/not-an-installed-client', '--input-gcs', () =>
      requireModule('@maou/not-an-installed-client'),
    );
    expect(r).toEqual({
      ok: false,
      error: {
        kind: 'missing-client',
        message:
          '--input-gcs needs the package @maou/not-an-installed-client, which is not installed. Install it with: pnpm add @maou/not-an-installed-client (or npm install @maou/not-an-installed-client)',
      },
    });
  });

  it('given an installed client, when loaded, then the module is returned', async () => {
    const r = await loadOptionalModule('@aws-sdk/client-s3', '--input-s3', () =>
      requireModule<{ S3Client: unknown }>('@aws-sdk/client-s3'),
    );
    expect(r.ok && typeof r.value.S3Client).toBe('function');
  });
});
