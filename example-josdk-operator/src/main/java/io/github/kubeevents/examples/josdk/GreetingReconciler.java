package io.github.kubeevents.examples.josdk;

import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.fabric8.Fabric8Objects;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;

/**
 * Reconciles {@link Greeting}s and says so with events, as a Go controller would: a Normal {@code Greeted} event
 * for each successful reconcile (a repeat becomes a count patch of the same Event), a Warning
 * {@code ReconcileFailed} for each failed one (JOSDK's {@link #updateErrorStatus} hook). Recording never blocks the
 * reconcile thread: the recorder queues the event and writes it through the operator's own fabric8 client.
 */
public class GreetingReconciler implements Reconciler<Greeting> {

	private final EventRecorder recorder;

	/** @param recorder where events go */
	public GreetingReconciler(EventRecorder recorder) {
		this.recorder = recorder;
	}

	@Override
	public UpdateControl<Greeting> reconcile(Greeting greeting, Context<Greeting> context) {
		if (greeting.getSpec() != null && greeting.getSpec().isFail()) {
			throw new IllegalStateException("greeting '" + greeting.getMetadata().getName() + "' asks to fail");
		}
		String name = (greeting.getSpec() != null) ? greeting.getSpec().getName() : "world";
		this.recorder.about(greeting, Fabric8Objects.ADAPTER).normal("Greeted", "Hello, %s", name);
		return UpdateControl.noUpdate();
	}

	@Override
	public ErrorStatusUpdateControl<Greeting> updateErrorStatus(Greeting greeting, Context<Greeting> context,
			Exception failure) {
		this.recorder.about(greeting, Fabric8Objects.ADAPTER)
			.warning("ReconcileFailed", "Reconcile failed: %s", failure.getMessage());
		return ErrorStatusUpdateControl.noStatusUpdate();
	}

}
