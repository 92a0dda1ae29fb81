package dev.locksmith.benchmarks.lock;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/** The minimal Spring Boot application that Locksmith is auto-configured in. */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(LockedSection.class)
class LocksmithBenchApplication {

}
