package dev.locksmith.testing;

import java.util.ArrayList;
import java.util.List;

/**
 * The steps by which {@code redis-cli --cluster reshard} and {@code rebalance} move one hash slot from
 * its master to another: the target imports it, the source migrates it, its keys move in batches with
 * {@code MIGRATE}, and every master is told the slot's new node.
 */
final class SlotMigration {

	private static final int MIGRATE_TIMEOUT_MILLIS = 5000;

	private final AdminConnections admin;

	private final int slot;

	private final RedisServer source;

	private final RedisServer target;

	SlotMigration(AdminConnections admin, int slot, RedisServer source, RedisServer target) {
		this.admin = admin;
		this.slot = slot;
		this.source = source;
		this.target = target;
	}

	/** Opens the migration: the target imports the slot, then its source migrates it. */
	void begin() {
		check(this.admin.call(this.target, "CLUSTER", "SETSLOT", slot(), "IMPORTING", this.admin.id(this.source)));
		check(this.admin.call(this.source, "CLUSTER", "SETSLOT", slot(), "MIGRATING", this.admin.id(this.target)));
	}

	/** Moves {@code keys} of the slot to the target. */
	void moveKeys(String... keys) {
		List<String> command = new ArrayList<>(List.of("MIGRATE", "127.0.0.1", Integer.toString(this.target.port()),
				"", "0", Integer.toString(MIGRATE_TIMEOUT_MILLIS), "REPLACE", "KEYS"));
		command.addAll(List.of(keys));
		check(this.admin.call(this.source, command.toArray(String[]::new)));
	}

	/** Moves the keys left and gives the slot to the target, on the target, the source and {@code otherMasters}. */
	void finish(List<RedisServer> otherMasters) {
		String left;
		while (!(left = this.admin.call(this.source, "CLUSTER", "GETKEYSINSLOT", slot(), "100")).isEmpty()) {
			moveKeys(left.split("\n"));
		}
		String[] owner = { "CLUSTER", "SETSLOT", slot(), "NODE", this.admin.id(this.target) };
		check(this.admin.call(this.target, owner));
		check(this.admin.call(this.source, owner));
		for (RedisServer other : otherMasters) {
			if (other != this.source && other != this.target) {
				check(this.admin.call(other, owner));
			}
		}
	}

	private String slot() {
		return Integer.toString(this.slot);
	}

	private static void check(String reply) {
		if (!reply.equals("OK") && !reply.equals("NOKEY")) {
			throw new IllegalStateException("Redis refused a migration step: " + reply);
		}
	}

}
