package io.github.kubeevents.sample;

import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventType;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code POST /events}: records a Kubernetes event about the object described in the body, through the
 * starter's {@link EventRecorder}, and answers 202 Accepted with an echo.
 *
 * <p>Thread-safe.
 */
@RestController
public class EventController {

	private final EventRecorder recorder;

	/**
	 * A controller recording through {@code recorder}.
	 * @param recorder the auto-configured recorder
	 */
	@Autowired
	public EventController(EventRecorder recorder) {
		this.recorder = recorder;
	}

	/**
	 * Records an event.
	 * @param request the involved object and the event
	 * @return 202 with what was recorded
	 * @throws ResponseStatusException 400 when kind, name or reason is missing, or the type is not
	 * {@code Normal}/{@code Warning}
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
		this.recorder.event(request.toReference(), type, request.reason(), message);
		return ResponseEntity.accepted()
			.body(new EventAccepted(request.namespaceOrDefault() + "/" + request.name(), request.kind(), type.value(),
					request.reason(), message));
	}

	private static void require(String value, String field) {
		if (value == null || value.isBlank()) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, field + " is required");
		}
	}

}
