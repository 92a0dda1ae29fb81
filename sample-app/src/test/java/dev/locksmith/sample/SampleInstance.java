package dev.locksmith.sample;

import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.client.RestClient;

/** One running instance of the sample app on a random port, started in this JVM. */
final class SampleInstance implements AutoCloseable {

	private final ConfigurableApplicationContext context;

	private final RestClient http;

	private SampleInstance(ConfigurableApplicationContext context) {
		this.context = context;
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		this.http = RestClient.builder()
			.baseUrl("http://127.0.0.1:" + port)
			.defaultStatusHandler((status) -> true, (request, response) -> {
			})
			.build();
	}

	/** Starts an instance with these {@code name=value} properties. */
	static SampleInstance start(String... properties) {
		List<String> arguments = new ArrayList<>(List.of("--server.port=0"));
		for (String property : properties) {
			arguments.add("--" + property);
		}
		SpringApplication application = new SpringApplication(SampleApplication.class);
		// named, not deduced from the stack (the test runner's main): with spring.aot.enabled=true the
		// application starts from the initializer that AOT processing generated for this class
		application.setMainApplicationClass(SampleApplication.class);
		return new SampleInstance(application.run(arguments.toArray(String[]::new)));
	}

	/** A client for this instance that returns every response, whatever its status. */
	RestClient http() {
		return this.http;
	}

	ConfigurableApplicationContext context() {
		return this.context;
	}

	@Override
	public void close() {
		this.context.close();
	}

}
