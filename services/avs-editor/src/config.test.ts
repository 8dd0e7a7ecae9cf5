import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_HOLD_SECONDS } from '@portal/domain';
import { loadAvsEditorConfig } from './config';

/** The validators' prefixes and the hold are configuration (spec 03 §2: "a fixed rule"), never code. */

const folder = mkdtempSync(join(tmpdir(), 'avs-editor-config-'));
const file = (name: string, body: string) => {
  const path = join(folder, name);
  writeFileSync(path, body);
  return path;
};

it('reads config/avs-editor.json of the workspace by default', () => {
  const config = loadAvsEditorConfig({});
  expect(config.port).toBe(3007);
  expect(config.validatorEmailPrefixes).toEqual(['qc@', 'admin@']);
  expect(config.holdSeconds).toBe(900);
});

it('takes another file, and the environment over any file', () => {
  const other = file('other.json', JSON.stringify({ validatorEmailPrefixes: ['gis.'], holdSeconds: 60 }));
  expect(loadAvsEditorConfig({ AVS_EDITOR_CONFIG_FILE: other })).toMatchObject({
    validatorEmailPrefixes: ['gis.'],
    holdSeconds: 60,
  });
  expect(
    loadAvsEditorConfig({
      AVS_EDITOR_CONFIG_FILE: other,
      AVS_EDITOR_VALIDATOR_PREFIXES: ' a@, ,b. ',
      AVS_EDITOR_HOLD_SECONDS: '120',
    }),
  ).toMatchObject({ validatorEmailPrefixes: ['a@', 'b.'], holdSeconds: 120 });
  // An empty setting: nobody validates.
  expect(loadAvsEditorConfig({ AVS_EDITOR_VALIDATOR_PREFIXES: '' }).validatorEmailPrefixes).toEqual([]);
  const bare = file('bare.json', '{}');
  expect(loadAvsEditorConfig({ AVS_EDITOR_CONFIG_FILE: bare })).toMatchObject({
    validatorEmailPrefixes: [],
    holdSeconds: DEFAULT_HOLD_SECONDS,
  });
});

it('refuses a broken or missing named file and bad values, rather than starting half-configured', () => {
  expect(() => loadAvsEditorConfig({ AVS_EDITOR_CONFIG_FILE: join(folder, 'none.json') })).toThrow(
    /does not exist/,
  );
  expect(() => loadAvsEditorConfig({ AVS_EDITOR_CONFIG_FILE: file('broken.json', '{') })).toThrow(
    /not valid JSON/,
  );
  expect(() =>
    loadAvsEditorConfig({ AVS_EDITOR_CONFIG_FILE: file('list.json', '{"validatorEmailPrefixes":"qc@"}') }),
  ).toThrow(/list of strings/);
  expect(() => loadAvsEditorConfig({ AVS_EDITOR_HOLD_SECONDS: '0' })).toThrow(/above 0/);
});
