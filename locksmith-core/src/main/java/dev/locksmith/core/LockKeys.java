package dev.locksmith.core;

import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/** Validates lock keys and puts a set of them in canonical order. */
final class LockKeys {

	private LockKeys() {
	}

	/**
	 * One valid key: not blank, and well-formed Unicode, since the store sees it as UTF-8, where an
	 * unpaired surrogate would turn into the same '?' as every other.
	 */
	static String require(String key) {
		if (key == null || key.isBlank()) {
			throw new IllegalArgumentException("key must not be null or blank, was " + (key == null ? "null" : "'" + key + "'"));
		}
		int unpaired = unpairedSurrogate(key);
		if (unpaired >= 0) {
			throw new IllegalArgumentException(String.format(
					"key must be well-formed Unicode text, but has an unpaired surrogate \\u%04X at index %d",
					(int) key.charAt(unpaired), unpaired));
		}
		return key;
	}

	private static int unpairedSurrogate(String key) {
		for (int i = 0; i < key.length(); i++) {
			char c = key.charAt(i);
			if (Character.isHighSurrogate(c) && i + 1 < key.length() && Character.isLowSurrogate(key.charAt(i + 1))) {
				i++;
			}
			else if (Character.isSurrogate(c)) {
				return i;
			}
		}
		return -1;
	}

	/** The keys sorted and without duplicates, so every caller locks them in the same order. */
	static List<String> canonical(Collection<String> keys) {
		if (keys == null || keys.isEmpty()) {
			throw new IllegalArgumentException("keys must not be null or empty, was " + keys);
		}
		TreeSet<String> sorted = new TreeSet<>();
		for (String key : keys) {
			sorted.add(require(key));
		}
		return List.copyOf(sorted);
	}


}
