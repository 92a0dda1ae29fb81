package dev.locksmith.readme;

// tag::read-write[]
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.stereotype.Service;

import dev.locksmith.annotation.DistributedLock;
import dev.locksmith.annotation.LockMode;

@Service
class Documents {

	private final Map<String, String> texts = new ConcurrentHashMap<>();

	@DistributedLock(name = "doc", key = "#docId", mode = LockMode.READ)   // many readers at once
	public String read(String docId) {
		return this.texts.getOrDefault(docId, "");
	}

	@DistributedLock(name = "doc", key = "#docId")                    // mode = WRITE: one writer, no readers
	public void edit(String docId, String text) {
		this.texts.put(docId, text);
	}

	@DistributedLock(name = "pdf-render", permits = 4)               // at most 4 holders at once
	public byte[] render(String report) {
		return report.getBytes();
	}

}
// end::read-write[]
