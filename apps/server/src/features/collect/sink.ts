/** Where a run puts what it fetched (CollectService implements it for one account). */
export interface Sink {
  knownUidls(): Promise<Set<string>>;
  forgetUidls(keep: Set<string>): Promise<void>;
  /** Fingerprints (fingerprint.ts) this user already has from this remote mailbox. */
  seen(fingerprints: string[]): Promise<Set<string>>;
  imapState(folder: string): Promise<{ uidvalidity: number; last_uid: number } | undefined>;
  /**
   * Stores a fetched mail and records it as fetched in the same transaction. Returns
   * false when it was already collected before (then only the record is written).
   */
  store(raw: Buffer, mark: Mark): Promise<boolean>;
  /** Records a message as fetched without downloading it: its fingerprint is known already. */
  skip(fingerprint: string, mark: Mark): Promise<void>;
  /** IMAP: every UID up to `uid` is stored (or known) in this UIDVALIDITY. */
  advance(folder: string, uidvalidity: number, uid: number): Promise<void>;
}

export interface Mark { uidl?: string }

export interface RunResult { count: number; bytes: number }
