import yargs from 'yargs';
import { cliVersion, withVersionAndCompletion } from './completion';

// yargs prints help, version and the completion script through console.log.
const capture = async (argv: string[]): Promise<string> => {
  let out = '';
  const logs = jest.spyOn(console, 'log').mockImplementation((...a: unknown[]) => {
    out += `${a.join(' ')}\n`;
  });
  try {
    await withVersionAndCompletion(yargs(argv).scriptName('maou'))
      .exitProcess(false)
      .command('utility', 'tools')
      .parseAsync();
  } finally {
    logs.mockRestore();
  }
  return out;
};

describe('version and completion', () => {
  it('given --version, then the @maou/cli package version', async () => {
    expect(cliVersion()).toMatch(/^\d+\.\d+\.\d+/);
    expect((await capture(['--version'])).trim()).toBe(cliVersion());
  });

  it('given completion, then a bash script that asks maou for completions', async () => {
    const script = await capture(['completion']);
    expect(script).toContain('###-begin-maou-completions-###');
    expect(script).toContain('--get-yargs-completions');
  });

  it('given --help, then the examples are listed', async () => {
    expect(await capture(['--help'])).toContain('maou completion >> ~/.bashrc');
  });
});
