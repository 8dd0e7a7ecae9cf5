// The workspace's ESLint rule that the shell and the remotes take routing and Redux Toolkit from web-kit
// (eslint.config.mjs, `no-restricted-imports`; libs/web-kit/src/router.ts and state.ts say why) fires: a
// value imported from the packages themselves is an error there, a type from them is not, and web-kit
// itself (where the packages are used) is not held to it. The snippets are linted where they would live.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RULE = 'no-restricted-imports';
const eslint = new ESLint({ cwd: ROOT });

async function restricted(file, code) {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.filter((message) => message.ruleId === RULE).map((message) => message.message);
}

const VALUE_IMPORTS = {
  'react-router': "import { useNavigate } from 'react-router';\nexport const go = useNavigate;\n",
  '@reduxjs/toolkit': "import { createSlice } from '@reduxjs/toolkit';\nexport const make = createSlice;\n",
  '@reduxjs/toolkit/query':
    "import { skipToken } from '@reduxjs/toolkit/query';\nexport const skip = skipToken;\n",
  '@reduxjs/toolkit/query/react':
    "import { createApi } from '@reduxjs/toolkit/query/react';\nexport const api = createApi;\n",
  'react-redux': "import { useSelector } from 'react-redux';\nexport const select = useSelector;\n",
};

for (const file of ['mf-iris/src/state/probe.ts', 'shell/src/app/probe.tsx']) {
  for (const [name, code] of Object.entries(VALUE_IMPORTS)) {
    test(`${file}: a value from '${name}' is refused`, async () => {
      const messages = await restricted(file, code);
      assert.equal(messages.length, 1, `expected one ${RULE} error, got ${JSON.stringify(messages)}`);
      assert.match(messages[0], /@portal\/web-kit/);
    });
  }
}

test('a type from Redux Toolkit is allowed in a remote (types are erased)', async () => {
  const code =
    "import type { PayloadAction } from '@reduxjs/toolkit';\nexport type Action = PayloadAction<string>;\n";
  assert.deepEqual(await restricted('mf-iris/src/state/probe.ts', code), []);
});

test('the same values from web-kit are allowed', async () => {
  const code =
    "import { createSlice, skipToken, useNavigate } from '@portal/web-kit';\nexport const all = [createSlice, skipToken, useNavigate];\n";
  assert.deepEqual(await restricted('mf-iris/src/state/probe.ts', code), []);
});

test('web-kit itself uses the packages', async () => {
  const code = VALUE_IMPORTS['@reduxjs/toolkit'];
  assert.deepEqual(await restricted('libs/web-kit/src/probe.ts', code), []);
});
