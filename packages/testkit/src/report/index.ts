export * from './headless-chromium';
export * from './html-report.fixtures';
