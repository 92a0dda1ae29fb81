package dev.locksmith.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One node's view of a Redis Cluster, read from its {@code CLUSTER NODES} reply: which node serves
 * which slots, and which node replicates which.
 */
record ClusterNodes(List<Node> nodes) {

	/** Reads a {@code CLUSTER NODES} reply. */
	static ClusterNodes parse(String reply) {
		List<Node> nodes = new ArrayList<>();
		for (String line : reply.split("\n")) {
			if (!line.isBlank()) {
				nodes.add(Node.parse(line.trim()));
			}
		}
		return new ClusterNodes(List.copyOf(nodes));
	}

	/** The masters that this view holds alive and serving at least one slot. */
	List<Node> servingMasters() {
		return this.nodes.stream().filter((node) -> node.isLiveMaster() && node.slots() > 0).toList();
	}

	/** The live masters, with or without slots. */
	List<Node> liveMasters() {
		return this.nodes.stream().filter(Node::isLiveMaster).toList();
	}

	/** The node on {@code port}, if this view knows it. */
	Optional<Node> onPort(int port) {
		return this.nodes.stream().filter((node) -> node.port() == port).findFirst();
	}

	/** The live master that this view says serves {@code slot}. */
	Optional<Node> serving(int slot) {
		return liveMasters().stream().filter((node) -> node.serves(slot)).findFirst();
	}

	/** A live replica of the node with {@code masterId}. */
	Optional<Node> replicaOf(String masterId) {
		return this.nodes.stream()
			.filter((node) -> masterId.equals(node.masterId()) && !node.flags().contains("fail"))
			.findFirst();
	}

	/**
	 * One line of the reply.
	 * @param slotRanges first and last slot of each range it serves, migrations left out
	 */
	record Node(String id, int port, Set<String> flags, String masterId, List<int[]> slotRanges) {

		static Node parse(String line) {
			String[] fields = line.split(" ");
			String address = fields[1];
			int port = Integer.parseInt(address.substring(address.lastIndexOf(':', address.indexOf('@')) + 1,
					address.indexOf('@')));
			List<int[]> ranges = new ArrayList<>();
			for (int i = 8; i < fields.length; i++) {
				if (!fields[i].startsWith("[")) {
					String[] bounds = fields[i].split("-");
					ranges.add(new int[] { Integer.parseInt(bounds[0]), Integer.parseInt(bounds[bounds.length - 1]) });
				}
			}
			return new Node(fields[0], port, Set.of(fields[2].split(",")), fields[3], List.copyOf(ranges));
		}

		boolean isLiveMaster() {
			return this.flags.contains("master") && !this.flags.contains("fail") && !this.flags.contains("fail?");
		}

		boolean serves(int slot) {
			return this.slotRanges.stream().anyMatch((range) -> range[0] <= slot && slot <= range[1]);
		}

		/** How many slots it serves. */
		int slots() {
			return this.slotRanges.stream().mapToInt((range) -> range[1] - range[0] + 1).sum();
		}

		/** The slots it serves, in ascending order. */
		List<Integer> slotList() {
			List<Integer> slots = new ArrayList<>();
			this.slotRanges.forEach((range) -> {
				for (int slot = range[0]; slot <= range[1]; slot++) {
					slots.add(slot);
				}
			});
			return slots;
		}

	}

}
