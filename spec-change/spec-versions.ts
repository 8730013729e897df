// Loads a version of the OpenAPI document for a spec-change check: a file (YAML or JSON), or a git ref, read with
// `git show <ref>:spec/openapi.yaml` so no checkout is touched.
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { readCappedFile, TooLargeError } from '../verifier-client/bounded-read.ts';
import { isJsonObject, type JsonObject } from '../spec/index.ts';
import { checkDocumentShape } from './spec-shape.ts';

const run = promisify(execFile);

/** Where the spec lives in a git tree of this kit. */
const specPathInRepository = 'spec/openapi.yaml';

/** A version of the document and how to name it in reports. */
export interface SpecVersion {
  document: JsonObject;
  /** e.g. `spec/openapi.yaml` or `main:spec/openapi.yaml`. */
  label: string;
}

/** Why a version could not be loaded, in one line a person can act on. */
export class SpecVersionError extends Error {}

/** A spec larger than this is refused (ours is about 40 KB). */
const maxSpecBytes = 64 * 1024 * 1024;

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

/** JSON goes through JSON.parse (fast, and no recursion limit); anything else is YAML. */
function parseText(text: string, label: string): unknown {
  if (/^\s*[{[]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new SpecVersionError(`${label} is not valid JSON (${firstLine(error)})`);
    }
  }
  try {
    // The YAML parser gives plain data; the round trip drops anything that is not JSON (dates, undefined).
    return JSON.parse(JSON.stringify(parse(text, { maxAliasCount: 100 })));
  } catch (error) {
    throw new SpecVersionError(
      error instanceof RangeError
        ? `${label} is nested too deeply to read as YAML; give it as JSON`
        : `${label} is not valid YAML or JSON (${firstLine(error)})`,
    );
  }
}

/**
 * Parses the text of a version; throws SpecVersionError when it is not an OpenAPI document.
 * @example parseSpec('openapi: 3.1.0\npaths: {}\n', 'inline').document.openapi // '3.1.0'
 */
function parseSpec(text: string, label: string): SpecVersion {
  const document = parseText(text, label);
  if (!isJsonObject(document) || typeof document.openapi !== 'string' || !isJsonObject(document.paths))
    throw new SpecVersionError(`${label} is not an OpenAPI document (it needs "openapi" and "paths")`);
  const problem = checkDocumentShape(document);
  if (problem !== undefined) throw new SpecVersionError(`${label}: ${problem}`);
  return { document, label };
}

/**
 * Loads `source`: a file path if such a file exists, else a git ref of the repository at `cwd`.
 * @example await loadSpecVersion('main') // { label: 'main:spec/openapi.yaml', document: {...} }
 */
export async function loadSpecVersion(source: string, cwd: string = process.cwd()): Promise<SpecVersion> {
  if (existsSync(source) && statSync(source).isFile()) {
    let text: string;
    try {
      text = readCappedFile(source, maxSpecBytes);
    } catch (error) {
      throw new SpecVersionError(
        error instanceof TooLargeError
          ? `${source} is not read: ${error.message}`
          : `cannot read ${source} (${firstLine(error)})`,
      );
    }
    return parseSpec(text, source);
  }
  if (source.startsWith('-') || /\s/.test(source) || source === '')
    throw new SpecVersionError(`"${source}" is neither a file nor a git ref`);
  const label = `${source}:${specPathInRepository}`;
  let text: string;
  try {
    ({ stdout: text } = await run('git', ['show', label], { cwd, maxBuffer: 64 * 1024 * 1024 }));
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim().split('\n')[0];
    throw new SpecVersionError(
      `"${source}" is not a file, and git cannot show ${label}${stderr ? ` (${stderr})` : ''}; give a spec file or a git ref of this repository`,
    );
  }
  return parseSpec(text, label);
}
