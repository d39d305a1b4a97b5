/**
 * Cloud fault campaign (#19): S3 (s3rver), GCS and BigQuery (loopback servers speaking their REST APIs, driven by the
 * official clients) behind a fault proxy that injects 5xx, 429, connection resets, truncated bodies and stalls on a
 * seeded random schedule. Every run must either succeed with whole data or fail with an error naming the object,
 * listing or table, and leave no partial file in its cache.
 *
 *   pnpm fault:campaign [-- --runs 300 --seconds 600 --seed 19 --backends s3,gcs,bigquery --quiet]
 *
 * Prints one line per run, then the figures as JSON; exits 1 when any run hung, failed uncleanly, returned wrong
 * data or left a partial file. Reproduce a campaign with its printed seed.
 */
// The built module (the package script compiles first), so the clients run as they do in production.
import { runFaultCampaign } from '@maou/bench-testkit/sources';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
};

const main = async (): Promise<void> => {
  const seed = Number(arg('seed', String(Date.now() % 1_000_000)));
  const runs = Number(arg('runs', '300'));
  const seconds = Number(arg('seconds', '600'));
  const backends = arg('backends', 's3,gcs,bigquery').split(',');
  const quiet = process.argv.includes('--quiet');
  process.stdout.write(
    `fault campaign: seed ${seed}, up to ${runs} runs or ${seconds} s, backends ${backends.join(', ')}\n`,
  );
  const figures = await runFaultCampaign({
    runs,
    seconds,
    seed,
    backends,
    onRun: quiet ? undefined : (line) => process.stdout.write(`${line}\n`),
  });
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
  const bad = figures.hangs + figures.uncleanFailures.length + figures.wrongData + figures.partialFilesLeft;
  process.stdout.write(
    bad === 0
      ? 'OK: every run succeeded or failed cleanly; 0 partial files left\n'
      : `FAILED: ${bad} bad run(s); replay with --seed ${seed}\n`,
  );
  process.exitCode = bad === 0 ? 0 : 1;
};

void main();
