package dev.locksmith.benchmarks.lock;

import java.util.ArrayList;
import java.util.List;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What the libraries of one JVM share: the Redis port, the PostgreSQL of the run when there is one, and the
 * Spring applications that Locksmith's entry points are taken from, each started on first use.
 */
public final class BenchEnvironment implements AutoCloseable {

	/**
	 * The system property with the JDBC URL of the run's PostgreSQL ({@link BenchPostgres}), which the worker
	 * JVMs are given too; unset in a run on Redis alone.
	 */
	public static final String JDBC_URL_PROPERTY = "bench.jdbc-url";

	private static final String NO_DATA_SOURCE = "--spring.autoconfigure.exclude="
			+ "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration";

	private final int redisPort;

	private @Nullable ConfigurableApplicationContext locksmithContext;

	private @Nullable ConfigurableApplicationContext locksmithJdbcContext;

	public BenchEnvironment(int redisPort) {
		this.redisPort = redisPort;
	}

	public int redisPort() {
		return this.redisPort;
	}

	/** The running Locksmith application, configured by Spring Boot for this Redis. */
	synchronized ConfigurableApplicationContext locksmithContext() {
		if (this.locksmithContext == null) {
			this.locksmithContext = run(NO_DATA_SOURCE);
		}
		return this.locksmithContext;
	}

	/**
	 * The running Locksmith application with {@code locksmith.store=jdbc}, configured by Spring Boot for the
	 * run's PostgreSQL, whose schema {@link BenchPostgres} created; its pool is Spring Boot's default.
	 */
	synchronized ConfigurableApplicationContext locksmithJdbcContext() {
		if (this.locksmithJdbcContext == null) {
			this.locksmithJdbcContext = run("--locksmith.store=jdbc", "--spring.datasource.url=" + jdbcUrl(),
					"--spring.datasource.username=" + BenchPostgres.USER);
		}
		return this.locksmithJdbcContext;
	}

	private ConfigurableApplicationContext run(String... arguments) {
		SpringApplication application = new SpringApplication(LocksmithBenchApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		List<String> all = new ArrayList<>(List.of("--spring.data.redis.host=127.0.0.1",
				"--spring.data.redis.port=" + this.redisPort, "--spring.main.banner-mode=off",
				"--spring.main.log-startup-info=false"));
		all.addAll(List.of(arguments));
		return application.run(all.toArray(String[]::new));
	}

	/**
	 * A new pool on the run's PostgreSQL, of Hikari's default size (10, as Spring Boot's), for a peer library;
	 * the library closes it.
	 */
	HikariDataSource newDataSource() {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(jdbcUrl());
		config.setUsername(BenchPostgres.USER);
		return new HikariDataSource(config);
	}

	private static String jdbcUrl() {
		String url = System.getProperty(JDBC_URL_PROPERTY);
		if (url == null) {
			throw new IllegalStateException("No PostgreSQL in this run: the PostgreSQL libraries run under "
					+ "PostgresMain, which sets " + JDBC_URL_PROPERTY);
		}
		return url;
	}

	@Override
	public synchronized void close() {
		if (this.locksmithContext != null) {
			this.locksmithContext.close();
		}
		if (this.locksmithJdbcContext != null) {
			this.locksmithJdbcContext.close();
		}
	}

}
