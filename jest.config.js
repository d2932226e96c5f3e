/** Three tiers: unit (beside the code), integration (real Postgres and NATS), e2e (started services). */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

const libs = ['contracts', 'config', 'observability', 'messaging', 'persistence', 'runtime', 'storage', 'rules', 'ontologies', 'ai', 'formulas', 'parsing', 'retrieval', 'answering', 'api-client', 'testing'];
const moduleNameMapper = Object.fromEntries(libs.map((l) => [`^@docintel/${l}$`, `<rootDir>/libs/${l}/src`]));

const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper,
  modulePathIgnorePatterns: ['<rootDir>/apps/.*/dist', '<rootDir>/libs/.*/dist'],
};

module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs}/*/src/**/*.spec.ts'] },
    { ...common, displayName: 'integration', testMatch: ['<rootDir>/{apps,libs}/*/src/**/*.int-spec.ts'], setupFilesAfterEnv: ['<rootDir>/libs/testing/src/integration-timeout.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test-e2e/**/*.e2e-spec.ts'], setupFilesAfterEnv: ['<rootDir>/test-e2e/support/timeout.ts'] },
  ],
};
