/**
 * The typed client's `WebhookEvent` cannot drift from the catalog of events the service sends: the fixture
 * (webhook-events.fixture.ts) compiles only while they match, and this test compiles it with the repository's
 * strict options (the TypeScript compiler in this process).
 */
import path from 'node:path';
import ts from 'typescript';
import { WEBHOOK_EVENT_SCHEMAS } from '@crew/contracts';
import { CLIENT_EVENT_TYPES } from './webhook-events.fixture';

const REPO = path.resolve(__dirname, '../../..');
const FIXTURE = path.join(__dirname, 'webhook-events.fixture.ts');

describe("the typed client's webhook events", () => {
  it('the fixture compiles: WebhookEvent has every event of the catalog, and no other', () => {
    const config = ts.readConfigFile(path.join(REPO, 'tsconfig.base.json'), (f) => ts.sys.readFile(f));
    const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, REPO);
    const program = ts.createProgram([FIXTURE], { ...options, noEmit: true });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0]);
    expect(errors).toEqual([]);
  }, 120_000);

  it("the fixture's list is the catalog's", () => {
    expect(Object.keys(CLIENT_EVENT_TYPES).sort()).toEqual(Object.keys(WEBHOOK_EVENT_SCHEMAS).sort());
  });
});
