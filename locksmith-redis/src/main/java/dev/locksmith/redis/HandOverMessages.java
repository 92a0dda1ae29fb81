package dev.locksmith.redis;

import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.locksmith.core.OwnerEntries;
import dev.locksmith.core.ReleaseNotifications.Listener;

/**
 * Reads the hand-overs the scripts publish on a lock's release channel, and a release answers to its
 * caller: {@code <claim lease ms>:<fencing token>:<owner token>}.
 */
final class HandOverMessages {

	private static final Log logger = LogFactory.getLog(HandOverMessages.class);

	private HandOverMessages() {
	}

	/**
	 * Tells {@code listener} of the hand-over of {@code key} in {@code body}. A body of another form
	 * (from another version of Locksmith) is dropped: its waiter finds its lock on its next re-check.
	 */
	static void deliver(String key, String body, Listener listener) {
		int first = body.indexOf(':');
		int second = body.indexOf(':', first + 1);
		if (first < 1 || second < 0) {
			return;
		}
		try {
			Duration claimLease = Duration.ofMillis(Long.parseLong(body.substring(0, first)));
			long fencingToken = Long.parseLong(body.substring(first + 1, second));
			listener.handedOver(key, OwnerEntries.tokenOf(body.substring(second + 1)), claimLease, fencingToken);
		}
		catch (NumberFormatException ex) {
			logger.debug("Dropped a hand-over of another form: " + body.substring(0, first));
		}
	}

}
