package io.github.kubeevents.test.example;

import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.ObjectRecorder;

import org.springframework.stereotype.Service;

/** The code under test in the examples: creates widgets and reports what happened as Kubernetes events. */
@Service
public class WidgetService {

	private final EventRecorder recorder;

	/**
	 * A service recording through {@code recorder}.
	 * @param recorder the application's recorder (the starter's, or the fake in tests)
	 */
	public WidgetService(EventRecorder recorder) {
		this.recorder = recorder;
	}

	/**
	 * Creates a widget, which fails when no quota is left.
	 * @param name the widget's name (namespace {@code default})
	 * @param quotaLeft how many widgets may still be created
	 */
	public void create(String name, int quotaLeft) {
		ObjectRecorder events = this.recorder.about(InvolvedObject.of("Widget", "example.com/v1", "default", name))
			.action("Create");
		if (quotaLeft <= 0) {
			events.warning("FailedCreate", "Error creating widget %s: quota exceeded", name);
			return;
		}
		events.normal("Created", "Created widget %s", name);
	}

}
