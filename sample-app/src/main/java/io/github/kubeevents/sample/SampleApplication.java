package io.github.kubeevents.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A small web application that records Kubernetes events through the kube-events starter. Without a cluster it
 * logs the events; with a kubeconfig or in a pod it writes real Events.
 */
@SpringBootApplication
public class SampleApplication {

	/**
	 * Starts the application.
	 * @param args command-line arguments
	 */
	public static void main(String[] args) {
		SpringApplication.run(SampleApplication.class, args);
	}

}
