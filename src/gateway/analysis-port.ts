import type { AudioFrame } from './telephony-port.js';

/**
 * The audio-analysis port: turns a call's incoming frames into labelled segments (what kind of
 * sound, and for speech what was said). The gateway decides what a segment means for the call; the
 * analysis only listens.
 */
export const AUDIO_LABELS = ['silence', 'ringback', 'music', 'ivr_speech', 'human_speech', 'tone'] as const;
export type AudioLabel = (typeof AUDIO_LABELS)[number];

export interface AudioSegment {
  readonly label: AudioLabel;
  /** Offsets into the call's audio, from the first frame. */
  readonly start_ms: number;
  readonly end_ms: number;
  /** For speech: the words recognised. */
  readonly text?: string;
  readonly confidence: number;
}

export interface AnalysisSession {
  /** Feeds one frame; returns the segments it completed, in order. */
  push(frame: AudioFrame): AudioSegment[];
  /** The segment in progress, cut at the last frame (at the end of a call). */
  flush(): AudioSegment[];
}

export interface AudioAnalysisPort {
  readonly name: string;
  /** One session per call leg. */
  open(legId: string): AnalysisSession;
}
