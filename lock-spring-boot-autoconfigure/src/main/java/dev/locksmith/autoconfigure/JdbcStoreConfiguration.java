package dev.locksmith.autoconfigure;

import javax.sql.DataSource;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

import dev.locksmith.autoconfigure.LocksmithProperties.InitializeSchema;
import dev.locksmith.core.FencedValues;
import dev.locksmith.core.LockStore;
import dev.locksmith.jdbc.JdbcFencedValues;
import dev.locksmith.jdbc.JdbcLockSchema;
import dev.locksmith.jdbc.JdbcLockStore;

/**
 * The PostgreSQL store, {@code locksmith.store=jdbc}: locks in the application's database, through the
 * {@link DataSource} marked {@link LockDataSource}, else its single or primary one. Its tables are created at
 * startup as {@code locksmith.jdbc.initialize-schema} says, and the startup stops naming the tables that are
 * missing.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(LockStoreCondition.class)
@ConditionalOnClass({ JdbcLockStore.class, EmbeddedDatabaseConnection.class })
@ConditionalOnBean(DataSource.class)
class JdbcStoreConfiguration {

	private final LockBeanChoice<DataSource> dataSource;

	JdbcStoreConfiguration(@LockDataSource ObjectProvider<DataSource> marked, ObjectProvider<DataSource> dataSources,
			ListableBeanFactory beanFactory) {
		this.dataSource = LockBeanChoice.of(DataSource.class, LockDataSource.class, "jdbc", marked, dataSources,
				beanFactory);
	}

	/** The store, on a schema that exists; the context closes it. One the application defines wins. */
	@Bean
	@ConditionalOnMissingBean(LockStore.class)
	JdbcLockStore jdbcLockStore(LocksmithProperties properties) {
		LocksmithProperties.Jdbc jdbc = properties.getJdbc();
		DataSource dataSource = this.dataSource.bean();
		JdbcLockSchema schema = EngineProperty.apply("locksmith.jdbc.table-prefix", jdbc.getTablePrefix(),
				() -> new JdbcLockSchema(dataSource, jdbc.getTablePrefix()));
		if (jdbc.getInitializeSchema() == InitializeSchema.ALWAYS || (jdbc.getInitializeSchema() == InitializeSchema.EMBEDDED
				&& EmbeddedDatabaseConnection.isEmbedded(dataSource))) {
			schema.create();
		}
		try {
			schema.verify();
		}
		catch (IllegalStateException ex) {
			throw NoLockStoreException.forMissingTables(ex);
		}
		JdbcLockStore.Builder store = JdbcLockStore.builder(dataSource).tablePrefix(jdbc.getTablePrefix());
		EngineProperty.apply("locksmith.jdbc.statement-timeout", jdbc.getStatementTimeout(),
				() -> store.statementTimeout(jdbc.getStatementTimeout()));
		return store.claimLease(ClaimLeases.of(properties.getWait())).build();
	}

	/** Starts listening for hand-overs with the context, and stops with it. */
	@Bean
	@ConditionalOnBean(JdbcLockStore.class)
	SmartLifecycle jdbcLockStoreLifecycle(JdbcLockStore store) {
		return new JdbcLockStoreLifecycle(store);
	}

	@Bean
	@ConditionalOnMissingBean
	FencedValues fencedValues(LocksmithProperties properties) {
		return new JdbcFencedValues(this.dataSource.bean(), properties.getJdbc().getTablePrefix());
	}

}
