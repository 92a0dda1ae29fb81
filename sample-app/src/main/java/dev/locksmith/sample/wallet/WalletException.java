package dev.locksmith.sample.wallet;

/**
 * A wallet operation that was refused; the message says why.
 */
public class WalletException extends RuntimeException {

	private final Reason reason;

	WalletException(Reason reason, String message) {
		super(message);
		this.reason = reason;
	}

	/** Why the operation was refused. */
	public Reason reason() {
		return this.reason;
	}

	/** The kinds of refusal. */
	public enum Reason {

		/** No such account. */
		UNKNOWN_ACCOUNT,

		/** The balance does not cover the amount. */
		INSUFFICIENT_FUNDS,

		/** A holder with a newer fencing token already wrote: this holder's lock had expired. */
		STALE_LOCK

	}

}
