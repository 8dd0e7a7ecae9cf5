import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { DEFAULT_HOLD_SECONDS } from '@portal/domain';
import { findWorkspaceRoot, intFromEnv, loadBaseConfig, type BaseConfig } from '@portal/server-kit';

export interface AvsEditorConfig extends BaseConfig {
  /** Spec 03 §2: 'Validate Parcel' is for users whose e-mail starts with one of these (configuration). */
  validatorEmailPrefixes: string[];
  /** How long a parcel or request taken from a queue stays held without an edit. */
  holdSeconds: number;
}

interface EditorFile {
  validatorEmailPrefixes?: unknown;
  holdSeconds?: unknown;
}

/** config/avs-editor.json (or AVS_EDITOR_CONFIG_FILE); a missing file is no settings, a broken one an error. */
function readEditorFile(env: Record<string, string | undefined>): EditorFile {
  const root = findWorkspaceRoot();
  const named = env.AVS_EDITOR_CONFIG_FILE?.trim();
  const file = named
    ? isAbsolute(named)
      ? named
      : join(root, named)
    : join(root, 'config', 'avs-editor.json');
  if (!existsSync(file)) {
    if (named) throw new Error(`AVS_EDITOR_CONFIG_FILE names ${file}, which does not exist`);
    return {};
  }
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as EditorFile;
  } catch (err) {
    throw new Error(`${file} is not valid JSON: ${(err as Error).message}`);
  }
}

/** services/avs-editor: port 3007, `PORT` overrides. */
export function loadAvsEditorConfig(env: Record<string, string | undefined> = process.env): AvsEditorConfig {
  const base = loadBaseConfig('avs-editor', 3007, env);
  const file = readEditorFile(env);
  const fromEnv = env.AVS_EDITOR_VALIDATOR_PREFIXES;
  let prefixes: string[];
  if (fromEnv !== undefined) prefixes = fromEnv.split(',');
  else if (
    Array.isArray(file.validatorEmailPrefixes) &&
    file.validatorEmailPrefixes.every((p) => typeof p === 'string')
  )
    prefixes = file.validatorEmailPrefixes as string[];
  else if (file.validatorEmailPrefixes === undefined) prefixes = [];
  else throw new Error('validatorEmailPrefixes must be a list of strings');
  const fileHold = file.holdSeconds === undefined ? DEFAULT_HOLD_SECONDS : Number(file.holdSeconds);
  if (!Number.isInteger(fileHold) || fileHold < 1)
    throw new Error('holdSeconds must be a whole number above 0');
  const holdSeconds = intFromEnv(env, 'AVS_EDITOR_HOLD_SECONDS', fileHold);
  if (holdSeconds < 1) throw new Error('AVS_EDITOR_HOLD_SECONDS must be above 0');
  return {
    ...base,
    validatorEmailPrefixes: prefixes.map((prefix) => prefix.trim()).filter(Boolean),
    holdSeconds,
  };
}
