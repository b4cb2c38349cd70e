/** Where a run puts what it fetched (CollectService implements it for one account; POP3 also keeps UIDLs). */
export interface Sink extends FolderSink {
  knownUidls(): Promise<Set<string>>;
  forgetUidls(keep: Set<string>): Promise<void>;
}

/** What the IMAP engine (imap-fetch.ts) needs: collection and migration both implement it. */
export interface FolderSink {
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

/** `seen`: the source had the message read (IMAP \\Seen). */
export interface Mark { uidl?: string; seen?: boolean }

export interface RunResult { count: number; bytes: number }
