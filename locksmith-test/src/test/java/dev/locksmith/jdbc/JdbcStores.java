package dev.locksmith.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import dev.locksmith.core.DefaultLockService;

/**
 * The stores, services and pools a test of the PostgreSQL store opens on one server, each started as an
 * application would and closed after the test: register it as a {@code @RegisterExtension} field.
 */
final class JdbcStores implements AfterEachCallback {

	private final PostgresServerExtension postgres;

	private final List<AutoCloseable> opened = new ArrayList<>();

	JdbcStores(PostgresServerExtension postgres) {
		this.postgres = postgres;
	}

	/** A pool of at most {@code size} connections to the server. */
	HikariDataSource pool(int size) {
		return opened(this.postgres.pooledDataSource(size));
	}

	/** A pool of at most {@code size} connections whose transactions start at {@code isolation}. */
	HikariDataSource pool(int size, String isolation) {
		return opened(this.postgres.pooledDataSource(size, isolation));
	}

	/** A started store on {@code dataSource} with a claim lease of 2 seconds. */
	JdbcLockStore store(DataSource dataSource) {
		return store(JdbcLockStore.builder(dataSource));
	}

	/** A store built by {@code builder}, started. */
	JdbcLockStore store(JdbcLockStore.Builder builder) {
		JdbcLockStore store = opened(builder.build());
		store.start();
		return store;
	}

	/** A service on {@code store} that re-checks every second. */
	DefaultLockService service(JdbcLockStore store) {
		return service(store, Duration.ofSeconds(1));
	}

	/** A service on {@code store} that re-checks every {@code recheckInterval}. */
	DefaultLockService service(JdbcLockStore store, Duration recheckInterval) {
		return opened(DefaultLockService.builder(store)
			.storeTimeout(Duration.ofSeconds(2))
			.recheckInterval(recheckInterval)
			.build());
	}

	/** The number that {@code query} answers on the server, such as a count of rows. */
	long number(String query) throws Exception {
		try (Connection connection = this.postgres.dataSource().getConnection();
				Statement statement = connection.createStatement();
				ResultSet answer = statement.executeQuery(query)) {
			answer.next();
			return answer.getLong(1);
		}
	}

	/** Closes what the test opened, the last opened first. */
	@Override
	public void afterEach(ExtensionContext context) throws Exception {
		for (AutoCloseable resource : this.opened) {
			resource.close();
		}
		this.opened.clear();
	}

	private <T extends AutoCloseable> T opened(T resource) {
		this.opened.add(0, resource);
		return resource;
	}

}
