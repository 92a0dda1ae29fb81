package dev.locksmith.test.readme;

// tag::in-memory-engine[]
import dev.locksmith.core.DefaultLockService;
import dev.locksmith.test.inmemory.InMemoryLockBackend;

class InMemoryEngine {

	private final InMemoryLockBackend store = new InMemoryLockBackend();

	DefaultLockService newEngine() {   // every engine built on this store shares its locks
		return DefaultLockService.builder(this.store).build();
	}

}
// end::in-memory-engine[]
