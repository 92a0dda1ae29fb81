package dev.locksmith.jdbc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;

/**
 * Puts the PostgreSQL server of extracted binaries on a clock of its own: its {@code postgres} becomes a script
 * that runs the real one under libfaketime, {@code offset} away from this machine's clock.
 */
final class FakeClock {

	private static final Path LIBFAKETIME = Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1");

	private FakeClock() {
	}

	static void wrap(Path binaries, String offset) throws IOException {
		if (!Files.exists(LIBFAKETIME)) {
			throw new IllegalStateException("libfaketime is missing: apt-get install libfaketime");
		}
		Path postgres;
		try (Stream<Path> files = Files.walk(binaries)) {
			postgres = files.filter((file) -> file.endsWith(Path.of("bin", "postgres"))).findFirst().orElseThrow();
		}
		Path real = postgres.resolveSibling("postgres.real");
		Files.move(postgres, real);
		Files.writeString(postgres, "#!/bin/sh\nLD_PRELOAD=" + LIBFAKETIME + " FAKETIME='" + offset
				+ "' FAKETIME_DONT_RESET=1 exec \"$(dirname \"$0\")/postgres.real\" \"$@\"\n");
		Files.setPosixFilePermissions(postgres, PosixFilePermissions.fromString("rwxr-xr-x"));
	}

}
