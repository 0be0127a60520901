package io.github.kubeevents.examples.josdk;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The example's custom resource: {@code greetings.example.kubeevents.io/v1}, namespaced
 * ({@code src/main/resources/greetings.example.kubeevents.io-v1.yml}).
 */
@Group(Greeting.GROUP)
@Version("v1")
public class Greeting extends CustomResource<GreetingSpec, Void> implements Namespaced {

	/** The API group. */
	public static final String GROUP = "example.kubeevents.io";

	private static final long serialVersionUID = 1L;

}
