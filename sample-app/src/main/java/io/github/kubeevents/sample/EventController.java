package io.github.kubeevents.sample;

import java.nio.charset.StandardCharsets;

import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventType;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.autoconfigure.KubeEventsProperties;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code POST /events}: records a Kubernetes event about the object described in the body, through the
 * starter's {@link EventRecorder}, and answers 202 Accepted.
 *
 * <p>Thread-safe.
 */
@RestController
public class EventController {

	private final EventRecorder recorder;

	private final int maxMessageBytes;

	/**
	 * A controller recording through {@code recorder}.
	 * @param recorder the auto-configured recorder
	 * @param properties the recorder's settings (for the message size limit)
	 */
	public EventController(EventRecorder recorder, KubeEventsProperties properties) {
		this.recorder = recorder;
		this.maxMessageBytes = properties.maxMessageBytes();
	}

	/**
	 * Records an event.
	 * @param request the object and the event
	 * @return 202 with what was recorded
	 * @throws ResponseStatusException 400 when kind, name or reason is missing or the type is not
	 * {@code Normal}/{@code Warning}; 413 when the message is larger than {@code kubeevents.max-message-size}
	 */
	@PostMapping("/events")
	public ResponseEntity<EventAccepted> record(@RequestBody EventRequest request) {
		require(request.kind(), "kind");
		require(request.name(), "name");
		require(request.reason(), "reason");
		EventType type = (request.type() != null) ? EventType.fromValue(request.type())
			.orElseThrow(() -> new ResponseStatusException(HttpStatus.BAD_REQUEST,
					"type must be Normal or Warning, was '" + request.type() + "'"))
				: EventType.NORMAL;
		String message = (request.message() != null) ? request.message() : "";
		int messageBytes = message.getBytes(StandardCharsets.UTF_8).length;
		if (messageBytes > this.maxMessageBytes) {
			throw new ResponseStatusException(HttpStatus.CONTENT_TOO_LARGE, "message is " + messageBytes
					+ " UTF-8 bytes, more than kubeevents.max-message-size (" + this.maxMessageBytes + " bytes)");
		}
		InvolvedObject object = request.toInvolvedObject();
		this.recorder.about(object).action(request.action()).event(type, request.reason(), message);
		String eventNamespace = (object.namespace() != null) ? object.namespace() : "default";
		return ResponseEntity.accepted()
			.body(new EventAccepted(object.displayName(), request.kind(), type.value(), request.reason(),
					eventNamespace, messageBytes));
	}

	private static void require(String value, String field) {
		if (value == null || value.isBlank()) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, field + " is required");
		}
	}

}
