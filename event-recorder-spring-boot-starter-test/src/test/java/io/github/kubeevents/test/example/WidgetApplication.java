package io.github.kubeevents.test.example;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A user's application, for the example tests: it records events through the starter's recorder. */
@SpringBootApplication
public class WidgetApplication {

	/**
	 * Starts the application.
	 * @param args command-line arguments
	 */
	public static void main(String[] args) {
		SpringApplication.run(WidgetApplication.class, args);
	}

}
