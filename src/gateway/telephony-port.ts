/**
 * The telephony port: what the gateway needs from a carrier, whatever speaks to it (a SIP trunk, a
 * carrier's API, the scripted test carrier). One outbound leg per call; audio is 8 kHz 16-bit mono
 * PCM in 20 ms frames both ways; everything the carrier observes arrives as events, in order, on
 * the listener given when the call was placed.
 */
export const SAMPLE_RATE = 8000;
export const FRAME_MS = 20;
export const SAMPLES_PER_FRAME = (SAMPLE_RATE * FRAME_MS) / 1000;

export interface AudioFrame {
  /** Position of the frame in its leg's stream, from 0: frame n starts at n × 20 ms of audio. */
  readonly seq: number;
  /** `SAMPLES_PER_FRAME` signed 16-bit samples at 8 kHz. */
  readonly samples: Int16Array;
}

/** How a leg ended, as the carrier saw it. */
export type LegEndCause = 'busy' | 'no_answer' | 'rejected' | 'failed' | 'remote_hangup' | 'local_hangup';

export type TelephonyEvent =
  | { readonly type: 'ringing' }
  | { readonly type: 'answered' }
  | { readonly type: 'audio'; readonly frame: AudioFrame }
  /** The device the call is being handed to is ringing. */
  | { readonly type: 'device_ringing'; readonly device: string }
  | { readonly type: 'bridged'; readonly device: string }
  | { readonly type: 'bridge_failed'; readonly device: string; readonly reason: string }
  /** The carrier stored a recording of the call. */
  | {
      readonly type: 'recording';
      readonly location: string;
      readonly format: string;
      readonly duration_ms: number;
    }
  | { readonly type: 'ended'; readonly cause: LegEndCause };

/** A device as the carrier reaches it: a SIP registration or a phone number through the trunk. */
export interface DeviceAddress {
  readonly kind: 'sip' | 'phone';
  readonly address: string;
}

/** One placed call. Every method resolves once the carrier accepted the request. */
export interface CallLeg {
  readonly id: string;
  sendDtmf(digits: string): Promise<void>;
  /** Plays text into the call with the carrier's (or the SIP stack's) speech synthesiser. */
  speak(text: string): Promise<void>;
  sendAudio(frame: AudioFrame): void;
  /** Rings `device` and joins it to this leg when it answers (`bridged`), or reports `bridge_failed`. */
  bridge(device: DeviceAddress): Promise<void>;
  hangup(): Promise<void>;
}

export interface TrunkStatus {
  readonly name: string;
  readonly registered: boolean;
  readonly detail: string;
}

export interface TelephonyPort {
  status(): TrunkStatus;
  /** Whether a device is reachable now (a SIP device is registered; a phone needs the trunk). */
  deviceOnline(device: DeviceAddress): boolean;
  /** Places a call to an E.164 number; events start arriving on `listener` after this resolves. */
  place(to: string, listener: (event: TelephonyEvent) => void): Promise<CallLeg>;
}
