// Sounds of the table, made here with the Web Audio API (no sound files): a card laid down, the
// deal, a trick gathered, the player's turn, a deal's end. The header's Sound button switches
// them off and on (kept in the browser's storage).

import { soundOn } from "./store.js";

let context = null;

function audio() {
  if (!context) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** A short burst of filtered noise (a card on the cloth) at ``when`` seconds from now. */
function snap(ctx, when, { length = 0.07, freq = 2400, gain = 0.25 } = {}) {
  const frames = Math.floor(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 3;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = freq;
  filter.Q.value = 0.8;
  const level = ctx.createGain();
  level.gain.value = gain;
  source.connect(filter).connect(level).connect(ctx.destination);
  source.start(ctx.currentTime + when);
}

/** A soft sine note. */
function note(ctx, when, freq, length = 0.16, gain = 0.08) {
  const osc = ctx.createOscillator();
  osc.type = "sine";
  osc.frequency.value = freq;
  const level = ctx.createGain();
  const start = ctx.currentTime + when;
  level.gain.setValueAtTime(0.0001, start);
  level.gain.exponentialRampToValueAtTime(gain, start + 0.02);
  level.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(level).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

const SOUNDS = {
  card: (ctx) => snap(ctx, 0),
  deal: (ctx) => {
    for (let i = 0; i < 8; i++) snap(ctx, i * 0.06, { length: 0.05, freq: 2800, gain: 0.15 });
  },
  trick: (ctx) => snap(ctx, 0.05, { length: 0.18, freq: 900, gain: 0.2 }),
  turn: (ctx) => {
    note(ctx, 0, 660);
    note(ctx, 0.12, 880);
  },
  result: (ctx) => {
    note(ctx, 0, 523, 0.2);
    note(ctx, 0.14, 659, 0.2);
    note(ctx, 0.28, 784, 0.3);
  },
};

/** Play the sound ``kind`` unless the sounds are off (a browser without audio stays silent). */
export function sound(kind) {
  if (!soundOn() || !SOUNDS[kind]) return;
  try {
    const ctx = audio();
    if (ctx && ctx.state !== "closed") SOUNDS[kind](ctx);
  } catch {
    // no audio here: the table is the same without it
  }
}
