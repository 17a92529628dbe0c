package io.github.dra4j.examples.gpu.nvml.driverfiles;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link DriverFilesFinder} found of one driver version under a driver root: the files
 * containers get, the libraries among them with their link names, the hook binary, and a line
 * for everything skipped. Turn it into CDI edits with {@link DriverFileEdits#of}.
 *
 * @param version the driver version the files belong to
 * @param libraries the libraries, with their link names
 * @param files every file to mount: the libraries, binaries, firmware and IPC sockets
 * @param hookPath the host path of {@code nvidia-cdi-hook}; empty if none was found or set
 * @param notes one line for each thing missing or refused, as logged
 */
public record DriverFiles(DriverVersion version, List<DriverLibrary> libraries,
    List<DriverFile> files, Optional<String> hookPath, List<String> notes) {

  /**
   * Copies the lists.
   *
   * @param version not null
   * @param libraries copied
   * @param files copied
   * @param hookPath not null
   * @param notes copied
   */
  public DriverFiles {
    Objects.requireNonNull(version, "version");
    libraries = List.copyOf(libraries);
    files = List.copyOf(files);
    Objects.requireNonNull(hookPath, "hookPath");
    notes = List.copyOf(notes);
  }

  /**
   * The files of one kind.
   *
   * @param kind the kind
   * @return the files, in the order found
   */
  public List<DriverFile> files(DriverFile.Kind kind) {
    return files.stream().filter(f -> f.kind() == kind).toList();
  }
}
