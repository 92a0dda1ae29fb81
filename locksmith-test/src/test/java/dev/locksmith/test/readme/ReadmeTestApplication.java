package dev.locksmith.test.readme;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/** The application that the README's {@code @SpringBootTest} snippets find. */
@SpringBootConfiguration
@EnableAutoConfiguration
class ReadmeTestApplication {

}
