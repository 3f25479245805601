import type { ModelRequest } from '../core/deps.js';
import type { Egress, EgressFile } from '../core/types.js';

/**
 * What left the machine in one run: the guard records every request as it hands it to an SDK
 * (a request that then fails was still sent), with the file content its builder declared.
 */
export interface EgressLog {
  record(provider: string, model: string, request: ModelRequest, promptBytes: number): void;
  /** One entry per provider and model, files by path; an entry with no call when nothing was sent. */
  report(): Egress[];
}

interface Entry {
  provider: string;
  model: string;
  calls: number;
  bytes: number;
  files: Map<string, { lines: Set<number>; bytes: number }>;
}

/** The run's model: listed even when nothing was sent, with its HTTP request count when the client keeps one. */
export interface ConfiguredModel {
  provider: string;
  model: string;
  attempts?: (() => number) | undefined;
}

export function createEgressLog(configured?: ConfiguredModel): EgressLog {
  const entries = new Map<string, Entry>();
  const entryOf = (provider: string, model: string): Entry => {
    const key = `${provider}\0${model}`;
    let entry = entries.get(key);
    if (!entry) {
      entry = { provider, model, calls: 0, bytes: 0, files: new Map() };
      entries.set(key, entry);
    }
    return entry;
  };
  // The configured model is listed even when every answer came from the cache: the manifest
  // then says, explicitly, that nothing was sent.
  if (configured) entryOf(configured.provider, configured.model);

  return {
    record(provider, model, request, promptBytes) {
      const entry = entryOf(provider, model);
      entry.calls += 1;
      entry.bytes += promptBytes;
      for (const part of request.egress ?? []) {
        let file = entry.files.get(part.path);
        if (!file) {
          file = { lines: new Set(), bytes: 0 };
          entry.files.set(part.path, file);
        }
        for (const line of part.lines) file.lines.add(line);
        file.bytes += part.bytes;
      }
    },
    report() {
      return [...entries.values()].map((entry) => {
        const out: Egress = {
          provider: entry.provider,
          model: entry.model,
          calls: entry.calls,
          bytes: entry.bytes,
          files: [...entry.files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([path, file]): EgressFile => ({ path, ranges: toRanges(file.lines), bytes: file.bytes })),
        };
        const isConfigured = configured && entry.provider === configured.provider && entry.model === configured.model;
        if (isConfigured && configured.attempts) out.attempts = configured.attempts();
        return out;
      });
    },
  };
}

/** Line numbers → merged, sorted inclusive ranges. */
export function toRanges(lines: Iterable<number>): Array<{ start: number; end: number }> {
  const sorted = [...new Set(lines)].sort((a, b) => a - b);
  const ranges: Array<{ start: number; end: number }> = [];
  for (const line of sorted) {
    const last = ranges[ranges.length - 1];
    if (last && line === last.end + 1) last.end = line;
    else ranges.push({ start: line, end: line });
  }
  return ranges;
}
