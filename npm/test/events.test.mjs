// The events module beyond the vectors: text chunks split inside characters (surrogate pairs
// included), the TransformStream adapter, runtime parity, and argument errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { backends, fixturesDir } from './helpers.mjs';

const { native, wasm } = await backends();
const stream = readFileSync(join(fixturesDir, 'events', 'streams', 'mock_tool_loop.jsonl'), 'utf8');
const emoji = [
  '{"type":"response.output_text.delta","delta":"héllo 😀 wörld"}',
  '{"type":"response.completed","response":{"usage":{"input_tokens":2,"output_tokens":3}}}',
  '',
].join('\n');

for (const [runtime, api] of [['native', native], ['wasm', wasm]]) {
  test(`text chunks split anywhere, surrogate pairs included (${runtime})`, () => {
    const whole = api.events.parse(emoji);
    assert.equal(whole.result.text, 'héllo 😀 wörld');
    assert.deepEqual(whole.result.usage, { input_tokens: 2, output_tokens: 3, cached_tokens: 0, total_tokens: 5 });
    for (let size = 1; size <= 7; size += 1) {
      const decoder = new api.events.EventStreamDecoder();
      const items = [];
      for (let at = 0; at < emoji.length; at += size) items.push(...decoder.push(emoji.slice(at, at + size)));
      const end = decoder.finish();
      decoder.free();
      assert.equal(end.result.text, whole.result.text, `chunk size ${size}`);
      assert.equal(end.valid, true);
      assert.deepEqual([...items, ...end.items].map((i) => i.kind), ['event', 'event']);
    }
  });

  test(`every UTF-8 stream vector pushed as text in random chunkings (${runtime})`, () => {
    const manifest = JSON.parse(readFileSync(join(fixturesDir, 'events', 'manifest.json'), 'utf8'));
    let streams = 0;
    for (const { kind, name, input } of manifest) {
      if (kind !== 'stream') continue;
      const bytes = readFileSync(join(fixturesDir, 'events', input));
      let text;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        continue; // text chunks cannot carry invalid UTF-8
      }
      streams += 1;
      const run = (cut) => {
        const decoder = new api.events.EventStreamDecoder();
        const items = [];
        for (let at = 0; at < text.length; ) {
          const n = Math.min(cut(), text.length - at);
          items.push(...decoder.push(text.slice(at, at + n)));
          at += n;
        }
        const { items: last, ...verdict } = decoder.finish();
        decoder.free();
        return { items: [...items, ...last], verdict };
      };
      const whole = run(() => Infinity);
      const { events: _, ...parsed } = api.events.parse(bytes);
      assert.deepEqual(whole.verdict, parsed, name);
      let state = 0x9e3779b9 ^ name.length;
      const next = (n) => {
        state = (Math.imul(state, 1103515245) + 12345) >>> 0;
        return state % n;
      };
      for (let round = 0; round < 6; round += 1) {
        const max = 1 + next(48);
        assert.deepEqual(run(() => 1 + next(max)), whole, `${name}, round ${round}`);
      }
    }
    assert.ok(streams > 20, `${streams} UTF-8 stream vectors`);
  });

  test(`TransformStream adapter (${runtime})`, async () => {
    const source = new Blob([stream]).stream();
    const out = [];
    for await (const item of source.pipeThrough(api.events.transformStream())) out.push(item);
    const end = out.at(-1);
    assert.equal(end.kind, 'end');
    assert.equal(end.valid, true);
    assert.equal(end.result.text, 'mock tool result: ok');
    assert.deepEqual(end.result.function_calls.map((c) => c.name), ['mock_tool']);
    assert.equal(out.filter((i) => i.kind === 'event').length, 6);
  });

  test(`serialize, mock, follow-up and tool specs (${runtime})`, () => {
    const lines = api.events.mock('tool-call');
    const parsed = api.events.parse(lines);
    assert.equal(parsed.valid, true);
    const events = parsed.events.map((e) => e.event);
    assert.equal(api.events.serialize(events), lines);
    assert.match(api.events.serialize(events, { form: 'spec' }), /^\{"type":"response.created"/);
    assert.throws(() => api.events.serialize(events, { form: 'yaml' }), { code: 'INVALID_ARGUMENT' });
    const input = api.events.followUp({ context: [], calls: parsed.result.function_calls, outputs: { call_mock: 'ok' } });
    assert.deepEqual(input.map((i) => i.type), ['function_call', 'function_call_output']);
    assert.throws(() => api.events.followUp({ calls: parsed.result.function_calls, outputs: {} }), { code: 'EVENTS_MISSING_OUTPUT' });
    assert.throws(() => api.events.parseToolSpec('add'), { code: 'EVENTS_INVALID_TOOL_SPEC' });
    assert.throws(() => api.events.functionTool('add', '[1]'), { code: 'EVENTS_SCHEMA_NOT_OBJECT' });
  });
}

test('both runtimes give the same items for a malformed stream', () => {
  const text = (t) => new TextEncoder().encode(t);
  const bad = new Uint8Array([
    ...text('{"type":"response.output_text.delta"}\nnot json\n[1]\n{"type":5}\n"'),
    0xff,
    ...text(`"\n{"type":"response.audio.delta"}\n{"type":"error","message":"${'x'.repeat(80)}"}\n`),
  ]);
  const run = (api) => {
    const d = new api.events.EventStreamDecoder({ maxLineBytes: 64 });
    const items = d.push(bad);
    return [items, d.finish()];
  };
  assert.deepEqual(run(native), run(wasm));
  const [items, end] = run(native);
  assert.deepEqual(
    items.map((i) => i.diagnostic?.code ?? i.kind),
    ['missing_field', 'invalid_json', 'not_object', 'bad_field_type', 'invalid_json', 'unknown_type', 'event', 'invalid_json'],
  );
  assert.deepEqual(end.items.map((i) => i.diagnostic.code), ['missing_terminal']);
  assert.equal(end.valid, false);
});

test('bad arguments fail the same way in both runtimes', () => {
  for (const api of [native, wasm]) {
    assert.throws(() => api.events.parse(42), { code: 'INVALID_ARGUMENT' });
    assert.throws(() => new api.events.EventStreamDecoder({ maxLineBytes: 0 }), { code: 'INVALID_ARGUMENT' });
    assert.throws(() => api.events.fromSse(null), { code: 'INVALID_ARGUMENT' });
  }
});
