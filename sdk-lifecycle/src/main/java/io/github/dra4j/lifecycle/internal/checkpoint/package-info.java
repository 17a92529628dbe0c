/**
 * The checkpoint of prepared claims: a file in which the plugin remembers which ResourceClaims
 * this node's driver is preparing or has prepared, so that a restarted driver (or the new pod of
 * a rolling update) can answer the kubelet, roll back half-done work and clean up. Internal: not
 * API.
 *
 * <ul>
 *   <li>{@link io.github.dra4j.lifecycle.internal.checkpoint.CheckpointFile}: the store, one
 *       per plugin: a lock shared by processes, read, durable write, corrupt files kept aside;
 *   <li>{@link io.github.dra4j.lifecycle.internal.checkpoint.CheckpointData}, {@link
 *       io.github.dra4j.lifecycle.internal.checkpoint.ClaimEntry} and the device records: the
 *       content, immutable;
 *   <li>{@link io.github.dra4j.lifecycle.internal.checkpoint.CheckpointCodec}: bytes to data
 *       and back;
 *   <li>{@link io.github.dra4j.lifecycle.internal.checkpoint.BootId}: the boot each entry was
 *       written in.
 * </ul>
 *
 * <pre>{@code
 * try (CheckpointFile.Session session = checkpoint.lock()) {
 *   CheckpointRead read = session.read();
 *   read.corruption().ifPresent(c -> report(c.reason()));
 *   session.write(read.data().with(uid, ClaimEntry.started(ns, name, bootId, allocation)));
 *   // ... prepare ...
 * }
 * }</pre>
 *
 * <h2>File format</h2>
 *
 * <p>UTF-8 JSON, indented by two spaces, ending with a newline:
 *
 * <pre>{@code
 * {
 *   "apiVersion": "checkpoint.dra4j.io/v1",
 *   "kind": "PreparedClaims",
 *   "checksum": "sha256:<64 lower-case hex digits>",
 *   "data": {
 *     "claims": {
 *       "<claim UID>": {
 *         "phase": "PrepareStarted" | "PrepareCompleted",
 *         "unprepareStarted": true,
 *         "namespace": "...", "name": "...", "bootId": "...",
 *         "allocation": [{"request": "gpu/small", "pool": "...", "device": "...",
 *                         "shareId": "...", "adminAccess": true,
 *                         "consumedCapacity": {"memory": "10Gi"}}],
 *         "devices": [{"requests": ["gpu"], "pool": "...", "device": "...",
 *                      "cdiDeviceIds": ["vendor.com/gpu=..."], "shareId": "..."}],
 *         "cdiSpec": {...},
 *         "driverState": {...}
 *       }
 *     }
 *   }
 * }
 * }</pre>
 *
 * <p>Members are written in this order, claims sorted by UID and capacity names sorted, so the
 * same content always gives the same bytes. Null values, empty lists and maps (except {@code
 * claims}, which is always there), and false flags ({@code adminAccess}, {@code
 * unprepareStarted}) are left out. {@code allocation} is what the scheduler allocated, written
 * when preparing starts so that a rollback knows which devices were touched; {@code devices} is
 * what was answered to the kubelet. {@code cdiSpec} and {@code driverState} are any JSON, kept as
 * they are. {@code unprepareStarted} marks a completed claim whose unprepare began: it is written
 * before the driver undoes anything, and such a claim is unprepared again before it is prepared
 * again; it is only valid with phase {@code PrepareCompleted}. A file is at most {@link
 * io.github.dra4j.lifecycle.internal.checkpoint.CheckpointFile#MAX_BYTES} bytes.
 *
 * <p>The checksum is the SHA-256 of the bytes of the {@code data} value exactly as they stand in
 * the file, from its opening brace to the matching closing brace, found with the streaming
 * parser's byte offsets. It is deliberately not computed over a re-encoding of what was read: a
 * reader that re-encodes only the fields it knows would compute a different sum for a file in
 * which a newer version added a field, and would wrongly call that file corrupt.
 *
 * <h2>Compatibility</h2>
 *
 * <ul>
 *   <li>Reading is lenient: members a reader does not know are ignored anywhere (top level,
 *       {@code data}, claims, devices), and a missing optional member gets its default. So a
 *       file written by a later release that only added fields still reads, including its
 *       checksum. Required are {@code apiVersion}, {@code kind}, {@code checksum}, {@code data},
 *       {@code data.claims} (releases before it was required left it out of an empty
 *       checkpoint; such a file is kept aside as corrupt once, and held nothing); per claim
 *       {@code phase}, {@code namespace}, {@code name}, {@code bootId}; per device {@code pool}
 *       and {@code device}.
 *   <li>{@code unprepareStarted} was added in v1 because an older reader ignoring it reads the
 *       claim as prepared, which is what that release itself would have recorded at that moment
 *       (it wrote nothing before the driver's undo); it then unprepares the claim on the
 *       kubelet's retry as it always did. The file stays readable by every earlier release.
 *   <li>A change that old readers would misread (a new meaning, a removed or retyped required
 *       field, a new phase) needs a new {@code apiVersion}. Readers are kept per apiVersion, and
 *       every apiVersion ever written keeps its reader: a file can outlive many upgrades, for as
 *       long as a claim stays prepared. A release writes only its newest version.
 *   <li>A downgrade to a release that does not know the newer apiVersion treats the file as
 *       corrupt: it keeps it aside (see below) and starts empty, it does not misread it.
 *   <li>Claim UIDs, namespaces and names are checked again when read (UID: 1 to 64 letters,
 *       digits and inner hyphens; namespace: DNS label; name: DNS subdomain), because they
 *       become parts of file paths; a value that fails makes the whole file corrupt.
 * </ul>
 *
 * <h2>Crash safety</h2>
 *
 * <ul>
 *   <li>A write never changes the file in place. It writes a hidden temporary file beside it,
 *       fsyncs it, renames it over the checkpoint and fsyncs the directory. A rename within a
 *       file system is atomic, so any reader, also after a crash or power loss at any moment,
 *       finds either the complete old file or the complete new one; once a write returned, the
 *       new one survives a power loss.
 *   <li>The checksum catches what atomic renames cannot: a file damaged on disk or changed by
 *       hand. Such a file, and any other that does not decode, is renamed aside to {@code <file
 *       name>.corrupt-<UTC time>} rather than deleted or overwritten, so the evidence stays for
 *       an operator, and the plugin goes on with no claims and reports the corruption. So is
 *       anything at the path that this plugin cannot have written: a file larger than the limit
 *       (not read, so a huge or sparse file costs nothing), a directory, a FIFO (never opened),
 *       a socket or device, a symbolic link, a file it may not read. Only an I/O error while
 *       reading leaves the file in place and fails the read: the content may be fine.
 *   <li>Read-modify-write happens under one lock held by every writer, in this process and in
 *       others sharing the directory, so no update is lost between two writers. Because all
 *       writes happen under that lock, a temporary file of the checkpoint found while holding
 *       it is the leftover of a crashed writer, and is removed.
 * </ul>
 */
package io.github.dra4j.lifecycle.internal.checkpoint;
