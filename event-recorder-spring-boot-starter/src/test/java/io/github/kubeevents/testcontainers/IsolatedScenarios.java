package io.github.kubeevents.testcontainers;

import java.util.ArrayList;
import java.util.List;

import io.github.kubeevents.autoconfigure.KubeEventsConnectionDetails;
import io.github.kubeevents.status.KubeEventsStatus;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetailsFactories;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetailsFactory;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * Runs inside {@link WithoutTestcontainersTests}' isolated class loaders (which load their own copy of this class,
 * Spring and the starter), and reports what happened as plain strings.
 */
public final class IsolatedScenarios {

	private IsolatedScenarios() {
	}

	/**
	 * Starts an application with every auto-configuration on the class path, then does what Spring Boot does with
	 * {@code ConnectionDetailsFactory} registrations ({@code docker-compose} support reads them in every
	 * application that has it).
	 * @return what happened, one fact per string
	 */
	public static List<String> run() {
		List<String> facts = new ArrayList<>();
		ClassLoader loader = IsolatedScenarios.class.getClassLoader();
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
			.web(WebApplicationType.NONE)
			.properties("kubeevents.sink.api=core/v1", "spring.main.banner-mode=off")
			.run()) {
			facts.add("started");
			facts.add("connection details beans: "
					+ String.join(",", context.getBeanNamesForType(KubeEventsConnectionDetails.class)));
			facts.add("sink: " + context.getBean(KubeEventsStatus.class).sink().value());
		}
		new ConnectionDetailsFactories(loader);
		facts.add("ConnectionDetailsFactories created");
		List<?> factories = SpringFactoriesLoader.forDefaultResourceLocation(loader)
			.load(ConnectionDetailsFactory.class, (factoryType, implementationName, failure) -> facts
				.add("not loaded: " + implementationName + " (" + rootCause(failure) + ")"));
		for (Object factory : factories) {
			if (factory instanceof K3sContainerConnectionDetailsFactory k3s) {
				facts.add("loaded: " + factory.getClass().getName() + ", answers for a source: "
						+ k3s.getConnectionDetails(null));
			}
		}
		return facts;
	}

	private static String rootCause(Throwable failure) {
		Throwable cause = failure;
		while (cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause.getClass().getSimpleName() + ": " + cause.getMessage();
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

	}

}
