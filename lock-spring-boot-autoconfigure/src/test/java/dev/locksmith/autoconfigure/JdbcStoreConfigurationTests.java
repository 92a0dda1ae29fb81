package dev.locksmith.autoconfigure;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import javax.sql.DataSource;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.annotation.LockMode;
import dev.locksmith.core.FencedValues;
import dev.locksmith.core.LockContext;
import dev.locksmith.core.LockHandle;
import dev.locksmith.core.LockOptions;
import dev.locksmith.core.LockService;
import dev.locksmith.jdbc.JdbcFencedValues;
import dev.locksmith.jdbc.JdbcLockSchema;
import dev.locksmith.jdbc.JdbcLockStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code locksmith.store=jdbc} on a real PostgreSQL server: the store and its fenced values on the chosen
 * {@code DataSource}, the schema created or checked at startup, and the failure report of an application whose
 * data source or tables Locksmith cannot find.
 */
@Tag("slow")
class JdbcStoreConfigurationTests {

	private static final LockOptions LONG = LockOptions.ofTtl(Duration.ofSeconds(30));

	private static EmbeddedPostgres postgres;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, LocksmithAutoConfiguration.class))
		.withPropertyValues("locksmith.store=jdbc", "spring.datasource.url=" + url("postgres"),
				"spring.datasource.username=postgres");

	@BeforeAll
	static void startPostgres() throws IOException, SQLException {
		postgres = EmbeddedPostgres.start();
		execute("postgres", "CREATE DATABASE other");
	}

	@AfterAll
	static void stopPostgres() throws IOException {
		postgres.close();
	}

	@BeforeEach
	void emptyDatabases() throws SQLException {
		for (String database : new String[] { "postgres", "other" }) {
			execute(database, "DROP SCHEMA public CASCADE; CREATE SCHEMA public");
		}
	}

	@Test
	void theJdbcStoreLocksOnTheApplicationsDataSourceWithTablesCreatedWhenAskedTo() {
		this.runner.withPropertyValues("locksmith.jdbc.initialize-schema=always").run((context) -> {
			assertThat(context).hasSingleBean(JdbcLockStore.class);
			assertThat(context.getBean(FencedValues.class)).isInstanceOf(JdbcFencedValues.class);
			LockService locks = context.getBean(LockService.class);
			assertThat(locks.tryAcquire("job", LONG)).isPresent();
			assertThat(locks.isLocked("job")).isTrue();
		});
	}

	@Test
	void withoutTheTablesTheStartupStopsNamingThem() {
		this.runner.run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new NoLockStoreFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).as("analysed by Locksmith").isNotNull();
			assertThat(analysis.getDescription()).contains("[locksmith_locks, locksmith_shares, locksmith_fences, "
					+ "locksmith_waiters, locksmith_fenced_values] are missing");
			assertThat(analysis.getAction()).contains("locksmith.jdbc.initialize-schema=always");
		});
	}

	@Test
	void neverCreatesNothingAndAPartialSchemaIsNamedTableByTable() throws SQLException {
		new JdbcLockSchema(dataSource("postgres"), "locksmith_").create();
		execute("postgres", "DROP TABLE locksmith_waiters");

		this.runner.withPropertyValues("locksmith.jdbc.initialize-schema=never").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("[locksmith_waiters] are missing");
		});
	}

	@Test
	void aTablePrefixNamesEveryTable() {
		this.runner.withPropertyValues("locksmith.jdbc.initialize-schema=always", "locksmith.jdbc.table-prefix=app_")
			.run((context) -> {
				assertThat(context.getBean(LockService.class).tryAcquire("job", LONG)).isPresent();
				assertThat(new JdbcLockSchema(dataSource("postgres"), "app_").missingTables()).isEmpty();
				assertThat(new JdbcLockSchema(dataSource("postgres"), "locksmith_").missingTables()).hasSize(5);
			});
	}

	@Test
	void anInvalidTablePrefixIsReportedAsAnInvalidProperty() {
		this.runner.withPropertyValues("locksmith.jdbc.table-prefix=locks; DROP").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("locksmith.jdbc.table-prefix")
				.hasMessageContaining("lower-case letters");
		});
	}

	@Test
	void readLocksAndPermitsOnTheJdbcStoreStartAndLock() {
		this.runner.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LocksmithAopAutoConfiguration.class))
			.withPropertyValues("locksmith.jdbc.initialize-schema=always")
			.withBean(Reports.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Reports reports = context.getBean(Reports.class);
				assertThat(reports.read("doc")).as("held while reading").isTrue();
				assertThat(reports.render()).as("held while rendering").isTrue();
			});
	}

	@Test
	void theQualifiedDataSourceIsTheOneLockedOn() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(LocksmithAutoConfiguration.class))
			.withPropertyValues("locksmith.store=jdbc", "locksmith.jdbc.initialize-schema=always")
			.withUserConfiguration(MainAndQualifiedOther.class)
			.run((context) -> {
				assertThat(context.getBean(LockService.class).tryAcquire("job", LONG)).isPresent();
				assertThat(new JdbcLockSchema(dataSource("other"), "locksmith_").missingTables()).isEmpty();
				assertThat(new JdbcLockSchema(dataSource("postgres"), "locksmith_").missingTables()).hasSize(5);
			});
	}

	@Test
	void twoDataSourcesAndNoChoiceStopTheStartupNamingBothAndTheQualifier() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(LocksmithAutoConfiguration.class))
			.withPropertyValues("locksmith.store=jdbc")
			.withUserConfiguration(TwoDataSources.class)
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new NoLockStoreFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis).as("analysed by Locksmith").isNotNull();
				assertThat(analysis.getDescription()).contains("needs one DataSource for its locks (locksmith.store=jdbc)")
					.contains("has 2 and none is @Primary or @LockDataSource: 'mainDataSource', 'otherDataSource'");
				assertThat(analysis.getAction()).startsWith("Mark the data source that locks should use with "
						+ "@dev.locksmith.autoconfigure.LockDataSource (on its @Bean method) or with @Primary");
			});
	}

	@Test
	void withoutADataSourceTheStartupSaysWhatTheStoreNeeds() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(LocksmithAutoConfiguration.class))
			.withPropertyValues("locksmith.store=jdbc")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.hasMessageContaining("locksmith.store=jdbc")
					.hasMessageContaining("a DataSource bean");
			});
	}

	@Test
	void withoutTheJdbcModuleTheStartupSaysWhatTheStoreNeeds() {
		this.runner.withClassLoader(new FilteredClassLoader(JdbcLockStore.class)).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("No LockService could be set up for locksmith.store=jdbc")
				.hasMessageContaining("dev.locksmith:locksmith-jdbc");
		});
	}

	private static String url(String database) {
		return "jdbc:postgresql://localhost:" + postgres.getPort() + "/" + database;
	}

	private static DataSource dataSource(String database) {
		return postgres.getDatabase("postgres", database);
	}

	private static void execute(String database, String sql) throws SQLException {
		try (Connection connection = dataSource(database).getConnection();
				Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
	}

	static class Reports {

		@DistributedLock(key = "#id", mode = LockMode.READ)
		public boolean read(String id) {
			return LockContext.current().map(LockHandle::isHeld).orElse(false);
		}

		@DistributedLock(permits = 4)
		public boolean render() {
			return LockContext.current().map(LockHandle::isHeld).orElse(false);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TwoDataSources {

		@Bean
		DataSource mainDataSource() {
			return dataSource("postgres");
		}

		@Bean
		DataSource otherDataSource() {
			return dataSource("other");
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MainAndQualifiedOther {

		@Bean
		DataSource mainDataSource() {
			return dataSource("postgres");
		}

		@Bean
		@LockDataSource
		DataSource otherDataSource() {
			return dataSource("other");
		}

	}

}
