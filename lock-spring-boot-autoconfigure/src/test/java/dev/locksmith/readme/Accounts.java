package dev.locksmith.readme;

// tag::fencing-jdbc[]
import java.util.Map;

import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Service;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.core.LockContext;
import dev.locksmith.core.LockHandle;

@Service
class Accounts {

	private final NamedParameterJdbcTemplate jdbc;

	Accounts(NamedParameterJdbcTemplate jdbc) {
		this.jdbc = jdbc;
	}

	@DistributedLock(name = "account", key = "{#from, #to}", ttl = "30s")
	public void transfer(String from, String to, long cents) {
		LockHandle lock = LockContext.current().orElseThrow();
		add(from, -cents, lock.fencingToken("account:" + from));
		add(to, cents, lock.fencingToken("account:" + to));
	}

	private void add(String accountId, long cents, long token) {
		int updated = this.jdbc.update(
				"UPDATE account SET balance = balance + :cents, fence = :token WHERE id = :id AND fence <= :token",
				Map.of("cents", cents, "token", token, "id", accountId));
		if (updated == 0) {
			throw new IllegalStateException("A newer lock holder already wrote " + accountId);   // a stale holder: give up
		}
	}

}
// end::fencing-jdbc[]
