package dev.locksmith.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The names of the store's tables, functions and notification channel under one prefix, and the schema
 * script written for that prefix.
 */
final class JdbcTables {

	static final String DEFAULT_PREFIX = "locksmith_";

	/** The tables a store needs, without their prefix. */
	static final List<String> TABLES = List.of("locks", "shares", "fences", "waiters", "fenced_values");

	private static final Pattern PREFIX = Pattern.compile("[a-z_][a-z0-9_]{0,29}");

	private static final String SCRIPT = "schema-postgresql.sql";

	private final String prefix;

	JdbcTables(String prefix) {
		checkPrefix(prefix);
		this.prefix = prefix;
	}

	/** Fails unless {@code prefix} makes valid unquoted PostgreSQL names. */
	static void checkPrefix(String prefix) {
		if (prefix == null || !PREFIX.matcher(prefix).matches()) {
			throw new IllegalArgumentException("tablePrefix must be lower-case letters, digits and '_' (at most 30, "
					+ "not starting with a digit), was '" + prefix + "'");
		}
	}

	String locks() {
		return this.prefix + "locks";
	}

	String shares() {
		return this.prefix + "shares";
	}

	String fencedValues() {
		return this.prefix + "fenced_values";
	}

	/** Every table the store needs, with its prefix. */
	List<String> tables() {
		return TABLES.stream().map((table) -> this.prefix + table).toList();
	}

	/** The channel on which releases tell the waiters they handed locks to. */
	String handOverChannel() {
		return this.prefix + "handovers";
	}

	/** A query of the store's function {@code name} with {@code parameters} placeholders. */
	String call(String name, int parameters) {
		return "SELECT " + this.prefix + name + "(" + String.join(", ", Collections.nCopies(parameters, "?"))
				+ ")";
	}

	/** The statements of the schema script, each of its names under this prefix. */
	List<String> schemaStatements() {
		try (InputStream script = JdbcTables.class.getResourceAsStream(SCRIPT)) {
			if (script == null) {
				throw new IllegalStateException("Missing " + SCRIPT + " beside " + JdbcTables.class.getName());
			}
			String text = new String(script.readAllBytes(), StandardCharsets.UTF_8).replace(DEFAULT_PREFIX,
					this.prefix);
			return Arrays.stream(text.split("(?m)^;;$"))
				.map(JdbcTables::withoutComments)
				.filter((statement) -> !statement.isBlank())
				.toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static String withoutComments(String statement) {
		return statement.lines().filter((line) -> !line.startsWith("--")).collect(Collectors.joining("\n")).strip();
	}

}
