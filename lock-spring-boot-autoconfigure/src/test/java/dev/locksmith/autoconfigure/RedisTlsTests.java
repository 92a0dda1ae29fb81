package dev.locksmith.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.opentest4j.TestAbortedException;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.testing.RedisServer;
import dev.locksmith.testing.RedisVersion;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Locksmith over TLS to a {@code redis-server} serving a certificate generated for the test: the standalone
 * store through {@code spring.data.redis.ssl} with an SSL bundle and through a {@code rediss://}
 * {@code spring.data.redis.url}, and Redlock through {@code rediss://} URLs, the URLs trusted by the JVM's
 * trust store (with a timeout that leaves room for the first TLS handshakes on a
 * loaded machine), on each tested version. Skipped when a {@code redis-server} was built without TLS.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(RedisVersion.class)
class RedisTlsTests {

	private static final LockOptions LONG = LockOptions.ofTtl(Duration.ofSeconds(30));

	private static Path certificates;

	private static final List<TlsRedis> servers = new ArrayList<>();

	/** The version of this run, injected by JUnit; {@link #startRedisOverTls} starts its servers. */
	@Parameter
	RedisVersion version;

	@BeforeParameterizedClassInvocation
	static void startRedisOverTls(RedisVersion version) throws Exception {
		certificates = Files.createTempDirectory("locksmith-tls-");
		run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
				"-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", file("key.pem"), "-out",
				file("cert.pem"));
		String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
		run(keytool, "-importcert", "-noprompt", "-alias", "redis", "-file", file("cert.pem"), "-keystore",
				file("trust.p12"), "-storetype", "PKCS12", "-storepass", "changeit");
		for (int i = 0; i < 3; i++) {
			servers.add(TlsRedis.start(version));
		}
	}

	@AfterParameterizedClassInvocation
	static void stopRedis() {
		servers.forEach((server) -> server.plain().close());
		servers.clear();
	}

	@Test
	void theStandaloneStoreLocksOverTlsWithSpringDataRedisSsl() {
		TlsRedis redis = servers.get(0);
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, DataRedisAutoConfiguration.class,
					LocksmithAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.port=" + redis.tlsPort(), "spring.data.redis.ssl.enabled=true",
					"spring.data.redis.ssl.bundle=redis",
					"spring.ssl.bundle.pem.redis.truststore.certificate=file:" + file("cert.pem"))
			.run((context) -> lockAndReleaseOn(context.getBean(LockService.class), List.of(redis)));
	}

	@Test
	void theStandaloneStoreLocksOverTlsWithARedissUrl() {
		TlsRedis redis = servers.get(0);
		withTheCertificateTrustedByTheJvm(() -> new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, LocksmithAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.url=rediss://127.0.0.1:" + redis.tlsPort(), "locksmith.redis-timeout=5s")
			.run((context) -> lockAndReleaseOn(context.getBean(LockService.class), List.of(redis))));
	}

	@Test
	void redlockLocksOverTlsWithRedissUrls() {
		String nodes = servers.stream()
			.map((server) -> "rediss://127.0.0.1:" + server.tlsPort())
			.collect(Collectors.joining(","));
		withTheCertificateTrustedByTheJvm(() -> new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(LocksmithAutoConfiguration.class))
			.withPropertyValues("locksmith.store=redlock", "locksmith.redlock.nodes=" + nodes,
					"locksmith.redis-timeout=5s")
			.run((context) -> lockAndReleaseOn(context.getBean(LockService.class), servers)));
	}

	/** Runs {@code test} with the JVM's trust store, which {@code rediss://} URLs use, set to the test's certificate. */
	private static void withTheCertificateTrustedByTheJvm(Runnable test) {
		String trustStore = System.getProperty("javax.net.ssl.trustStore");
		System.setProperty("javax.net.ssl.trustStore", file("trust.p12"));
		System.setProperty("javax.net.ssl.trustStorePassword", "changeit");
		try {
			test.run();
		}
		finally {
			System.clearProperty("javax.net.ssl.trustStorePassword");
			if (trustStore != null) {
				System.setProperty("javax.net.ssl.trustStore", trustStore);
			}
			else {
				System.clearProperty("javax.net.ssl.trustStore");
			}
		}
	}

	/** Takes and releases a lock, proving through each server's plain port that it was written there over TLS. */
	private static void lockAndReleaseOn(LockService locks, List<TlsRedis> written) throws Exception {
		try (LockHandle handle = locks.tryAcquire("tls-job", LONG).orElseThrow()) {
			assertThat(handle.isHeld()).isTrue();
			written.forEach((server) -> assertThat(server.plain().command("EXISTS", "lock:{tls-job}")).isEqualTo("1"));
		}
		written.forEach((server) -> assertThat(server.plain().command("EXISTS", "lock:{tls-job}")).isEqualTo("0"));
	}

	private static String file(String name) {
		return certificates.resolve(name).toString();
	}

	private static void run(String... command) throws IOException, InterruptedException {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes());
		if (process.waitFor() != 0) {
			throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
		}
	}

	/** A server with a plain port for the test's own checks and a TLS port for Locksmith. */
	private record TlsRedis(RedisServer plain, int tlsPort) {

		static TlsRedis start(RedisVersion version) {
			int tlsPort = RedisServer.freePort();
			try {
				return new TlsRedis(RedisServer.start(version, "--tls-port", Integer.toString(tlsPort),
						"--tls-cert-file", file("cert.pem"), "--tls-key-file", file("key.pem"), "--tls-ca-cert-file",
						file("cert.pem"), "--tls-auth-clients", "no"), tlsPort);
			}
			catch (IllegalStateException ex) {
				throw new TestAbortedException("redis-server does not serve TLS: " + ex.getMessage(), ex);
			}
		}

	}

}
