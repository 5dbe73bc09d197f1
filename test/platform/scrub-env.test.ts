import { describe, expect, it } from 'vitest';
import { hasUrlPassword, isSecretName, scrubEnvironment } from '../../src/platform/scrub-env.js';

describe('isSecretName', () => {
  it.each([
    ['OPENAI_API_KEY', true],
    ['GITHUB_TOKEN', true],
    ['GH_TOKEN', true],
    ['GITHUB_PAT', true],
    ['NPM_CONFIG__AUTH', true],
    ['npm_config__auth', true],
    ['AWS_SECRET_ACCESS_KEY', true],
    ['AWS_ACCESS_KEY_ID', true],
    ['DB_PASSWORD', true],
    ['MYSQL_PASSWD', true],
    ['GOOGLE_APPLICATION_CREDENTIALS', true],
    ['AZURE_CREDENTIAL', true],
    ['SLACK_APIKEY', true],
    ['HF_AUTHTOKEN', true],
    ['CI_JOB_TOKENS', true],
    ['sentryAuthToken', true],
    ['SSH_AUTH_SOCK', true],
    ['OTEL_EXPORTER_OTLP_HEADERS', true],
    ['OTEL_EXPORTER_OTLP_TRACES_HEADERS', true],
    ['SESSION_COOKIE', true],
    ['PATH', false],
    ['HOME', false],
    ['GIT_AUTHOR_NAME', false],
    ['KEYBOARD_LAYOUT', false],
    ['MONKEY_MODE', false],
    ['PATTERN', false],
    ['LANG', false],
    ['TANDEM_MODEL', false],
    ['NODE_OPTIONS', false],
    ['TERM', false],
  ])('%s -> %s', (name, secret) => {
    expect(isSecretName(name)).toBe(secret);
  });
});

describe('hasUrlPassword', () => {
  it.each([
    ['postgres://u:password@db.example/x', true],
    ['https://user:tok3n@github.com/o/r.git', true],
    ['redis://:pw@localhost:6379', true],
    ['https://github.com/o/r.git', false],
    ['postgres://u@db/x', false],
    ['http://localhost:8080/v1', false],
    ['me@example.com', false],
  ])('%s -> %s', (value, expected) => {
    expect(hasUrlPassword(value)).toBe(expected);
  });
});

describe('scrubEnvironment', () => {
  const env = {
    PATH: '/usr/bin',
    HOME: '/home/u',
    OPENAI_API_KEY: 'sk-user-key',
    TANDEM_API_KEY: 'sk-user-key',
    GITHUB_PAT: 'ghp_x',
    NPM_CONFIG__AUTH: 'abc',
    DATABASE_URL: 'postgres://u:password@db/x',
    PLAIN_URL: 'https://example.com',
    COPY_OF_KEY: 'prefix sk-user-key suffix',
    GITHUB_TOKEN: 'ghs_y',
    UNSET: undefined,
  };

  it('drops secret names, URLs with passwords and the API key wherever it appears', () => {
    expect(scrubEnvironment(env, { secrets: ['sk-user-key'] })).toEqual({ PATH: '/usr/bin', HOME: '/home/u', PLAIN_URL: 'https://example.com' });
  });

  it('keeps the names the user passes on', () => {
    expect(scrubEnvironment(env, { passEnv: ['GITHUB_TOKEN', 'DATABASE_URL'], secrets: ['sk-user-key'] })).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/u',
      PLAIN_URL: 'https://example.com',
      GITHUB_TOKEN: 'ghs_y',
      DATABASE_URL: 'postgres://u:password@db/x',
    });
  });
});
