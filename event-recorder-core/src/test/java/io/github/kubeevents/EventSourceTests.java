package io.github.kubeevents;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The reporting source, and its default host that is never empty (client-go's {@code os.Hostname()} fallback). */
class EventSourceTests {

	@Test
	void theDefaultHostIsThePodNameThenHostnameThenTheMachinesNameThenTheComponent() throws Exception {
		assertThat(EventSource.defaultHost("web-0", "box", "op")).isEqualTo("web-0");
		assertThat(EventSource.defaultHost(" ", " box ", "op")).isEqualTo("box");
		Path kernel = Path.of("/proc/sys/kernel/hostname");
		assumeTrue(Files.isReadable(kernel), "Linux: the kernel's host name is the expected value");
		String machine = Files.readString(kernel).trim();
		assertThat(EventSource.machineHostName()).isEqualTo(machine);
		assertThat(EventSource.defaultHost(null, "", "op")).isEqualTo(machine);
	}

	@Test
	void withoutAMachineHostNameTheComponentIsTheHost() {
		assertThat(EventSource.orComponent("", "op")).isEqualTo("op");
		assertThat(EventSource.orComponent("box", "op")).isEqualTo("box");
	}

	@Test
	void anExplicitHostIsKeptAndABlankComponentIsRefused() {
		assertThat(new EventSource("op", null).host()).isEmpty();
		assertThat(new EventSource("op", "h").host()).isEqualTo("h");
		assertThatIllegalArgumentException().isThrownBy(() -> EventSource.of(" "))
			.withMessage("EventSource component must not be blank");
	}

}
