package io.github.kubeevents;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The reporting source, and its default host that is never empty (client-go's {@code os.Hostname()} fallback). */
class EventSourceTests {

	@Test
	void theDefaultHostIsThePodNameThenHostnameThenTheMachinesNameThenTheComponent() throws Exception {
		assertThat(EventSource.defaultHost("web-0", "box", "op")).isEqualTo("web-0");
		assertThat(EventSource.defaultHost(" ", " box ", "op")).isEqualTo("box");
		String machine = Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
		assertThat(machine).as("this test runs on Linux").isNotEmpty();
		assertThat(EventSource.machineHostName()).isEqualTo(machine);
		assertThat(EventSource.defaultHost(null, "", "op")).isEqualTo(machine);
		assertThat(EventSource.of("op").host()).isEqualTo(
				EventSource.defaultHost(System.getenv("POD_NAME"), System.getenv("HOSTNAME"), "op"));
	}

	@Test
	void anExplicitHostIsKeptAndABlankComponentIsRefused() {
		assertThat(new EventSource("op", null).host()).isEmpty();
		assertThat(new EventSource("op", "h").host()).isEqualTo("h");
		assertThatIllegalArgumentException().isThrownBy(() -> EventSource.of(" "))
			.withMessage("EventSource component must not be blank");
	}

}
