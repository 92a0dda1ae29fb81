-- Locksmith's lock store on PostgreSQL: five tables and one function per operation. Every time is the
-- database's own clock (clock_timestamp()), never an application's. The prefix 'locksmith_' of every name
-- below is locksmith.jdbc.table-prefix; Locksmith replaces it when it runs this script itself
-- (locksmith.jdbc.initialize-schema), so run this file as it is only for the default prefix.
-- Statements are separated by lines holding only ';;' (the functions' bodies hold semicolons).

-- One row per held lock: its owner's token and when its lease ends. A release deletes the row; a lease that
-- ended is deleted by the next call on its key, or by the sweep of a later acquisition. Readers and permit
-- holders share a lock: their owner tokens are written '<share>/<token>', the share being '@read' or
-- '@permits=<n>'; while shares are held, the lock's owner is the share itself and its lease ends with the
-- longest of the shares' own leases, kept in locksmith_shares.
CREATE TABLE IF NOT EXISTS locksmith_locks (
  lock_key text PRIMARY KEY,
  owner_token text NOT NULL,
  expires_at timestamptz NOT NULL
)
;;
CREATE INDEX IF NOT EXISTS locksmith_locks_expiry ON locksmith_locks (expires_at)
;;
-- One row per holder of a shared lock: its owner token '<share>/<token>' and when its own lease ends. A
-- holder's renewal lengthens only its own lease. Deleted when its holder releases, or once its lease ended.
CREATE TABLE IF NOT EXISTS locksmith_shares (
  lock_key text NOT NULL,
  owner_token text NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (lock_key, owner_token)
)
;;
CREATE INDEX IF NOT EXISTS locksmith_shares_expiry ON locksmith_shares (expires_at)
;;
-- The last fencing token issued for each key that was ever locked. Never deleted, so a token is never
-- issued twice for a key, whatever happens to its lock row.
CREATE TABLE IF NOT EXISTS locksmith_fences (
  lock_key text PRIMARY KEY,
  last_token bigint NOT NULL
)
;;
-- The waiters of each key, first come first (by position), each with its deadline; a parked waiter also waits
-- for another key that was busy when it last asked, so releases pass it over. Deleted when it leaves, takes
-- the lock, or its deadline passes.
CREATE TABLE IF NOT EXISTS locksmith_waiters (
  lock_key text NOT NULL,
  owner_token text NOT NULL,
  position bigint NOT NULL,
  deadline timestamptz NOT NULL,
  parked boolean NOT NULL,
  PRIMARY KEY (lock_key, owner_token)
)
;;
CREATE INDEX IF NOT EXISTS locksmith_waiters_order ON locksmith_waiters (lock_key, position)
;;
CREATE SEQUENCE IF NOT EXISTS locksmith_waiter_positions
;;
-- Values written under fencing (JdbcFencedValues): a write is applied only with the highest token seen.
CREATE TABLE IF NOT EXISTS locksmith_fenced_values (
  value_key text PRIMARY KEY,
  value text NOT NULL,
  token bigint NOT NULL
)
;;
-- Serializes every call on the same keys: transaction-scoped advisory locks, taken in key order so that two
-- calls on overlapping keys never deadlock. The first number keeps them apart from the application's own.
CREATE OR REPLACE FUNCTION locksmith_guard(keys text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  k text;
BEGIN
  FOR k IN SELECT DISTINCT unnest(keys) ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock(1819239275, hashtext('locksmith_' || k));
  END LOOP;
END $$
;;
-- Issues the next fencing token of a key: the greater of the last token + 1 and the database clock in
-- microseconds, so that tokens strictly increase per key even if the counters were lost.
CREATE OR REPLACE FUNCTION locksmith_next_fence(k text, now timestamptz) RETURNS bigint LANGUAGE sql AS $$
  INSERT INTO locksmith_fences AS f (lock_key, last_token)
  VALUES (k, (extract(epoch FROM now) * 1000000)::bigint)
  ON CONFLICT (lock_key) DO UPDATE
    SET last_token = GREATEST(f.last_token + 1, (extract(epoch FROM now) * 1000000)::bigint)
  RETURNING last_token
$$
;;
-- The owner of the live lock of a key (a share while shares are held), or null; a lease that ended is
-- deleted, with what is left of its shares.
CREATE OR REPLACE FUNCTION locksmith_holder(k text, now timestamptz) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  holder text;
BEGIN
  DELETE FROM locksmith_locks WHERE lock_key = k AND expires_at <= now;
  IF FOUND THEN
    DELETE FROM locksmith_shares WHERE lock_key = k;
  END IF;
  SELECT owner_token INTO holder FROM locksmith_locks WHERE lock_key = k;
  RETURN holder;
END $$
;;
-- The share an owner token asks for, '@read' or '@permits=<n>'; null for an exclusive owner.
CREATE OR REPLACE FUNCTION locksmith_share_of(owner text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT substring(owner FROM '^(@read|@permits=[0-9]+)/')
$$
;;
-- An owner token without its share: the token a hand-over notice names.
CREATE OR REPLACE FUNCTION locksmith_token_of(owner text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT regexp_replace(owner, '^(@read|@permits=[0-9]+)/', '')
$$
;;
-- How many holders a share admits: its permit count, or 0 for readers (no limit) and exclusive owners.
CREATE OR REPLACE FUNCTION locksmith_limit_of(share text) RETURNS int LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(substring(share FROM '^@permits=([0-9]+)$')::int, 0)
$$
;;
-- Hands a lock to a waiter under the claim lease with a fencing token, and notifies it on the channel
-- locksmith_handovers when the transaction commits, as
-- '<claim lease ms>:<fencing token>:<length of the owner token>:<owner token><key>', its owner token
-- without its share. Returns {owner token, fencing token}.
CREATE OR REPLACE FUNCTION locksmith_announce(k text, waiter text, now timestamptz, claim_ms bigint)
RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
  token bigint := locksmith_next_fence(k, now);
  holder text := locksmith_token_of(waiter);
BEGIN
  PERFORM pg_notify('locksmith_handovers', claim_ms || ':' || token || ':' || length(holder) || ':' || holder || k);
  RETURN ARRAY[holder, token::text];
END $$
;;
-- Sets a shared lock to live as long as its longest share and deletes the shares whose lease ended, or
-- deletes the lock when no share is left.
CREATE OR REPLACE FUNCTION locksmith_keep_shared(k text, share text, now timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  longest timestamptz;
BEGIN
  DELETE FROM locksmith_shares WHERE lock_key = k AND expires_at <= now;
  SELECT max(expires_at) INTO longest FROM locksmith_shares WHERE lock_key = k;
  IF longest IS NULL THEN
    DELETE FROM locksmith_locks WHERE lock_key = k;
    RETURN;
  END IF;
  INSERT INTO locksmith_locks (lock_key, owner_token, expires_at) VALUES (k, share, longest)
  ON CONFLICT (lock_key) DO UPDATE SET owner_token = excluded.owner_token, expires_at = excluded.expires_at;
END $$
;;
-- Grants the share to waiters from the head of the queue, in order, up to the first live waiter for
-- something else and while permits are left, each under the claim lease with its own fencing token,
-- announced to it; the caller (null for none) is granted without either, as its own call answers it.
-- Parked waiters are passed over, and waiters whose deadline passed are deleted. Returns whether a live
-- waiter is left that could not be granted, how many holders' leases run now, and the hand-overs as
-- {owner token, fencing token, ...}.
CREATE OR REPLACE FUNCTION locksmith_grant_shares(k text, now timestamptz, claim_ms bigint, share text, caller text,
    OUT waiting boolean, OUT holders int, OUT handed text[]) LANGUAGE plpgsql AS $$
DECLARE
  w record;
  permits int := locksmith_limit_of(share);
BEGIN
  waiting := false;
  handed := ARRAY[]::text[];
  SELECT count(*) INTO holders FROM locksmith_shares WHERE lock_key = k AND expires_at > now;
  FOR w IN SELECT owner_token, deadline, parked FROM locksmith_waiters WHERE lock_key = k ORDER BY position LOOP
    IF w.owner_token IS DISTINCT FROM caller AND w.deadline <= now THEN
      DELETE FROM locksmith_waiters WHERE lock_key = k AND owner_token = w.owner_token;
    ELSIF w.owner_token = caller OR NOT w.parked THEN
      IF locksmith_share_of(w.owner_token) IS DISTINCT FROM share OR (permits > 0 AND holders >= permits) THEN
        waiting := true;
        RETURN;
      END IF;
      DELETE FROM locksmith_waiters WHERE lock_key = k AND owner_token = w.owner_token;
      INSERT INTO locksmith_shares (lock_key, owner_token, expires_at)
      VALUES (k, w.owner_token, now + claim_ms * interval '1 millisecond')
      ON CONFLICT (lock_key, owner_token) DO UPDATE SET expires_at = excluded.expires_at;
      holders := holders + 1;
      IF w.owner_token IS DISTINCT FROM caller THEN
        handed := handed || locksmith_announce(k, w.owner_token, now, claim_ms);
      END IF;
    END IF;
  END LOOP;
END $$
;;
-- Whether a key has waiters still waiting; those whose deadline passed are deleted.
CREATE OR REPLACE FUNCTION locksmith_has_waiters(k text, now timestamptz) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM locksmith_waiters WHERE lock_key = k AND deadline <= now;
  RETURN EXISTS (SELECT 1 FROM locksmith_waiters WHERE lock_key = k);
END $$
;;
-- Stands an owner in a key's queue until its deadline, parked or not: at the tail, or at the head, when
-- it is not in it yet.
CREATE OR REPLACE FUNCTION locksmith_stand(k text, owner text, deadline timestamptz, park boolean, at_head boolean)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO locksmith_waiters (lock_key, owner_token, position, deadline, parked)
  VALUES (k, owner, CASE WHEN at_head
      THEN (SELECT coalesce(min(position), 0) - 1 FROM locksmith_waiters WHERE lock_key = k)
      ELSE nextval('locksmith_waiter_positions') END, deadline, park)
  ON CONFLICT (lock_key, owner_token) DO UPDATE SET deadline = excluded.deadline, parked = excluded.parked;
END $$
;;
-- Finds who may take a free lock: the first live waiter that is not parked, or the caller (null for a release)
-- when it comes first. A waiter other than the caller is handed the lock under the claim lease with a
-- fencing token, taken out of the queue and notified (locksmith_announce); when the first asks for a share,
-- the waiters for it are granted together (locksmith_grant_shares). Waiters whose deadline passed are
-- deleted. Returns that waiter's owner token, or the share, or null when nobody but parked waiters waits,
-- and the hand-overs as {owner token, fencing token, ...}.
CREATE OR REPLACE FUNCTION locksmith_hand_on(k text, now timestamptz, caller text, claim_ms bigint,
    OUT holder text, OUT handed text[]) LANGUAGE plpgsql AS $$
DECLARE
  w record;
  share text;
BEGIN
  handed := ARRAY[]::text[];
  FOR w IN SELECT owner_token, deadline, parked FROM locksmith_waiters WHERE lock_key = k ORDER BY position LOOP
    share := locksmith_share_of(w.owner_token);
    IF share IS NOT NULL AND (w.owner_token = caller OR (w.deadline > now AND NOT w.parked)) THEN
      SELECT g.handed INTO handed FROM locksmith_grant_shares(k, now, claim_ms, share, caller) g;
      PERFORM locksmith_keep_shared(k, share, now);
      holder := share;
      RETURN;
    ELSIF w.owner_token = caller THEN
      holder := caller;
      RETURN;
    ELSIF w.deadline <= now OR NOT w.parked THEN
      DELETE FROM locksmith_waiters WHERE lock_key = k AND owner_token = w.owner_token;
      IF w.deadline > now THEN
        INSERT INTO locksmith_locks (lock_key, owner_token, expires_at)
        VALUES (k, w.owner_token, now + claim_ms * interval '1 millisecond')
        ON CONFLICT (lock_key) DO UPDATE SET owner_token = excluded.owner_token, expires_at = excluded.expires_at;
        DELETE FROM locksmith_shares WHERE lock_key = k;
        holder := w.owner_token;
        handed := locksmith_announce(k, w.owner_token, now, claim_ms);
        RETURN;
      END IF;
    END IF;
  END LOOP;
END $$
;;
-- Frees a lock whatever holds it, once every share it has (if any) has ended: hands it on, or deletes it
-- when nobody but parked waiters waits. Returns the hand-overs as {owner token, fencing token, ...}.
CREATE OR REPLACE FUNCTION locksmith_free(k text, now timestamptz, claim_ms bigint) RETURNS text[]
LANGUAGE plpgsql AS $$
DECLARE
  taker record;
BEGIN
  DELETE FROM locksmith_locks WHERE lock_key = k;
  SELECT * INTO taker FROM locksmith_hand_on(k, now, NULL, claim_ms);
  IF taker.holder IS NULL THEN
    DELETE FROM locksmith_shares WHERE lock_key = k;
  END IF;
  RETURN taker.handed;
END $$
;;
-- Acquires the locks of every key, all or nothing and in arrival order, and issues a fencing token for each.
-- Returns {1, token of keys[1], ..., token of keys[n]} when every lock is now held by the owner; else
-- {0, i, remaining lease of keys[i] in ms, fencing counter of keys[i]}, keys[i] being held by another owner or
-- handed to a waiter ahead of the caller. A refused caller with queue_ms > 0 waits for keys[i] and is parked
-- in the queues of the other keys that are held or have waiters (never of a free key, which would keep others
-- from it); a lock that a release handed to it goes on to the next waiter that can use it.
CREATE OR REPLACE FUNCTION locksmith_acquire(keys text[], owner text, ttl_ms bigint, queue_ms bigint, claim_ms bigint)
RETURNS bigint[] LANGUAGE plpgsql AS $$
DECLARE
  now timestamptz;
  k text;
  holder text;
  busy int := 0;
  answer bigint[];
BEGIN
  PERFORM locksmith_guard(keys);
  now := clock_timestamp();
  FOR i IN 1 .. cardinality(keys) LOOP
    holder := locksmith_holder(keys[i], now);
    IF holder IS NULL AND locksmith_has_waiters(keys[i], now) THEN
      SELECT h.holder INTO holder FROM locksmith_hand_on(keys[i], now, owner, claim_ms) h;
    END IF;
    IF holder IS NOT NULL AND holder <> owner THEN
      busy := i;
      EXIT;
    END IF;
  END LOOP;
  IF busy = 0 THEN
    answer := ARRAY[1];
    FOREACH k IN ARRAY keys LOOP
      INSERT INTO locksmith_locks (lock_key, owner_token, expires_at)
      VALUES (k, owner, now + ttl_ms * interval '1 millisecond')
      ON CONFLICT (lock_key) DO UPDATE SET owner_token = excluded.owner_token, expires_at = excluded.expires_at;
      DELETE FROM locksmith_waiters WHERE lock_key = k AND owner_token = owner;
      answer := answer || locksmith_next_fence(k, now);
    END LOOP;
    PERFORM locksmith_sweep(now);
    RETURN answer;
  END IF;
  SELECT ARRAY[0, busy, GREATEST(0, floor(extract(epoch FROM l.expires_at - now) * 1000))::bigint,
      coalesce((SELECT f.last_token FROM locksmith_fences f WHERE f.lock_key = keys[busy]), 0)]
    INTO answer FROM locksmith_locks l WHERE l.lock_key = keys[busy];
  FOREACH k IN ARRAY keys LOOP
    holder := locksmith_holder(k, now);
    IF holder = owner THEN
      DELETE FROM locksmith_locks WHERE lock_key = k;
    END IF;
    IF queue_ms <= 0 THEN
      DELETE FROM locksmith_waiters WHERE lock_key = k AND owner_token = owner;
    ELSIF k = keys[busy] OR holder IS NOT NULL OR locksmith_has_waiters(k, now) THEN
      PERFORM locksmith_stand(k, owner, now + queue_ms * interval '1 millisecond', k <> keys[busy], holder = owner);
    END IF;
    IF holder IS NULL OR holder = owner THEN
      PERFORM locksmith_hand_on(k, now, NULL, claim_ms);
    END IF;
  END LOOP;
  RETURN answer;
END $$
;;
-- Deletes a few leases and shares that ended and waiters whose deadline passed on keys that nobody called
-- since, so that abandoned rows do not pile up; rows another call is using are skipped.
CREATE OR REPLACE FUNCTION locksmith_sweep(now timestamptz) RETURNS void LANGUAGE sql AS $$
  DELETE FROM locksmith_locks WHERE ctid IN (SELECT ctid FROM locksmith_locks WHERE expires_at <= now
      LIMIT 8 FOR UPDATE SKIP LOCKED);
  DELETE FROM locksmith_shares WHERE ctid IN (SELECT ctid FROM locksmith_shares WHERE expires_at <= now
      LIMIT 8 FOR UPDATE SKIP LOCKED);
  DELETE FROM locksmith_waiters WHERE ctid IN (SELECT ctid FROM locksmith_waiters WHERE deadline <= now
      LIMIT 8 FOR UPDATE SKIP LOCKED);
$$
;;
-- Acquires a share of one lock, as a reader or a permit holder ('<share>/<token>'), in arrival order with its
-- writers, and issues a fencing token for it. Returns {1, token} when the share is now held;
-- {0, 1, ms until the lock or its first share may free, fencing counter} when refused: the lock is held by a
-- writer or another share, waiters stand ahead, or no permit is left; the caller then waits in the queue when
-- queue_ms > 0. Returns {-1, permit count held} when the lock is held by permits of another count: a caller
-- error.
CREATE OR REPLACE FUNCTION locksmith_acquire_share(k text, owner text, ttl_ms bigint, queue_ms bigint,
    claim_ms bigint) RETURNS bigint[] LANGUAGE plpgsql AS $$
DECLARE
  now timestamptz;
  share text := locksmith_share_of(owner);
  holder text;
  admitted boolean;
  granted record;
  first_end timestamptz;
  fenced bigint;
BEGIN
  PERFORM locksmith_guard(ARRAY[k]);
  now := clock_timestamp();
  holder := locksmith_holder(k, now);
  IF holder IS NULL AND locksmith_has_waiters(k, now) THEN
    SELECT h.holder INTO holder FROM locksmith_hand_on(k, now, owner, claim_ms) h;
  END IF;
  IF holder <> share AND locksmith_limit_of(holder) > 0 AND locksmith_limit_of(share) > 0 THEN
    RETURN ARRAY[-1, locksmith_limit_of(holder)];
  END IF;
  admitted := holder IS NULL OR (holder = share AND EXISTS (SELECT 1 FROM locksmith_shares
      WHERE lock_key = k AND owner_token = owner AND expires_at > now));
  IF NOT admitted AND holder = share THEN
    -- Serves the waiters ahead first, the caller among them.
    IF queue_ms > 0 AND locksmith_has_waiters(k, now) THEN
      PERFORM locksmith_stand(k, owner, now + queue_ms * interval '1 millisecond', false, false);
    END IF;
    SELECT * INTO granted FROM locksmith_grant_shares(k, now, claim_ms, share, owner);
    admitted := EXISTS (SELECT 1 FROM locksmith_shares WHERE lock_key = k AND owner_token = owner
        AND expires_at > now) OR (NOT granted.waiting AND (locksmith_limit_of(share) = 0
        OR granted.holders < locksmith_limit_of(share)));
  END IF;
  IF admitted THEN
    INSERT INTO locksmith_shares (lock_key, owner_token, expires_at)
    VALUES (k, owner, now + ttl_ms * interval '1 millisecond')
    ON CONFLICT (lock_key, owner_token) DO UPDATE SET expires_at = excluded.expires_at;
    DELETE FROM locksmith_waiters WHERE lock_key = k AND owner_token = owner;
    PERFORM locksmith_keep_shared(k, share, now);
    PERFORM locksmith_sweep(now);
    RETURN ARRAY[1, locksmith_next_fence(k, now)];
  END IF;
  IF queue_ms > 0 THEN
    PERFORM locksmith_stand(k, owner, now + queue_ms * interval '1 millisecond', false, false);
  END IF;
  fenced := coalesce((SELECT f.last_token FROM locksmith_fences f WHERE f.lock_key = k), 0);
  IF holder = share THEN
    SELECT min(expires_at) INTO first_end FROM locksmith_shares WHERE lock_key = k AND expires_at > now;
    IF first_end IS NULL THEN
      -- The last share ended and a waiter for something else stands ahead: the lock goes on to it.
      PERFORM locksmith_free(k, now, claim_ms);
      RETURN ARRAY[0, 1, 0, fenced];
    END IF;
    PERFORM locksmith_keep_shared(k, share, now);
  ELSE
    SELECT expires_at INTO first_end FROM locksmith_locks WHERE lock_key = k;
  END IF;
  RETURN ARRAY[0, 1, GREATEST(0, floor(extract(epoch FROM first_end - now) * 1000))::bigint, fenced];
END $$
;;
-- Releases the locks that the owner still holds, takes it out of the queues of the others, and hands each freed
-- lock to its first waiter. A share's release frees only its own share: the last one frees the lock, and a
-- permit goes on to the next waiter for the same permits. Returns {released count, key, waiter, fencing token,
-- ...}: the count, then each hand-over.
CREATE OR REPLACE FUNCTION locksmith_release(keys text[], owner text, claim_ms bigint)
RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
  now timestamptz;
  k text;
  share text := locksmith_share_of(owner);
  released int := 0;
  handed text[];
  handovers text[] := ARRAY[]::text[];
BEGIN
  PERFORM locksmith_guard(keys);
  now := clock_timestamp();
  FOREACH k IN ARRAY keys LOOP
    DELETE FROM locksmith_waiters WHERE lock_key = k AND owner_token = owner;
    handed := ARRAY[]::text[];
    IF share IS NULL AND locksmith_holder(k, now) = owner THEN
      released := released + 1;
      handed := locksmith_free(k, now, claim_ms);
    ELSIF share IS NOT NULL AND locksmith_holder(k, now) = share THEN
      DELETE FROM locksmith_shares WHERE lock_key = k AND owner_token = owner;
      IF FOUND THEN
        released := released + 1;
      END IF;
      IF NOT EXISTS (SELECT 1 FROM locksmith_shares WHERE lock_key = k AND expires_at > now) THEN
        handed := locksmith_free(k, now, claim_ms);
      ELSE
        SELECT g.handed INTO handed FROM locksmith_grant_shares(k, now, claim_ms, share, NULL) g;
        PERFORM locksmith_keep_shared(k, share, now);
      END IF;
    END IF;
    FOR i IN 1 .. cardinality(handed) / 2 LOOP
      handovers := handovers || ARRAY[k, handed[2 * i - 1], handed[2 * i]];
    END LOOP;
  END LOOP;
  RETURN ARRAY[released::text] || handovers;
END $$
;;
-- Extends each lease whose owner still holds it, a share's only for its own holder; a last lease keeps the
-- lock or share taken, but under the owner's token followed by '+released', so that no extension answered
-- later lengthens it. Returns whether each was extended.
CREATE OR REPLACE FUNCTION locksmith_extend(keys text[], owners text[], ttls_ms bigint[], lasts boolean[])
RETURNS boolean[] LANGUAGE plpgsql AS $$
DECLARE
  now timestamptz;
  share text;
  extended boolean[] := ARRAY[]::boolean[];
BEGIN
  PERFORM locksmith_guard(keys);
  now := clock_timestamp();
  FOR i IN 1 .. cardinality(keys) LOOP
    share := locksmith_share_of(owners[i]);
    IF share IS NULL THEN
      UPDATE locksmith_locks
        SET expires_at = now + ttls_ms[i] * interval '1 millisecond',
            owner_token = CASE WHEN lasts[i] THEN owners[i] || '+released' ELSE owners[i] END
        WHERE lock_key = keys[i] AND owner_token = owners[i] AND expires_at > now;
      extended := extended || FOUND;
    ELSIF locksmith_holder(keys[i], now) = share THEN
      UPDATE locksmith_shares
        SET expires_at = now + ttls_ms[i] * interval '1 millisecond',
            owner_token = CASE WHEN lasts[i] THEN owners[i] || '+released' ELSE owners[i] END
        WHERE lock_key = keys[i] AND owner_token = owners[i] AND expires_at > now;
      extended := extended || FOUND;
      PERFORM locksmith_keep_shared(keys[i], share, now);
    ELSE
      extended := extended || false;
    END IF;
  END LOOP;
  RETURN extended;
END $$
;;
-- Deletes a lock whatever its owner or its shares and hands it to its first waiter; the fencing counter stays.
-- Returns whether a lock was deleted.
CREATE OR REPLACE FUNCTION locksmith_force_release(k text, claim_ms bigint) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  now timestamptz;
BEGIN
  PERFORM locksmith_guard(ARRAY[k]);
  now := clock_timestamp();
  IF locksmith_holder(k, now) IS NULL THEN
    RETURN false;
  END IF;
  DELETE FROM locksmith_shares WHERE lock_key = k;
  PERFORM locksmith_free(k, now, claim_ms);
  RETURN true;
END $$
