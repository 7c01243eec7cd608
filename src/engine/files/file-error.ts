import { ToolError, type ErrorCode } from '../errors.js';

/** What a file-system errno means to the caller: a precise code and words that say what to do. */
const BY_ERRNO: Record<string, { code: ErrorCode; why: string }> = {
  ENOSPC: { code: 'DISK_FULL', why: 'the disk is full; free some space or choose a folder on another disk' },
  EDQUOT: { code: 'DISK_FULL', why: 'the disk quota is used up; free some space or choose another folder' },
  EFBIG: { code: 'DISK_FULL', why: 'the file is larger than this file system allows' },
  EACCES: { code: 'PERMISSION_DENIED', why: 'permission denied by the operating system' },
  EPERM: { code: 'PERMISSION_DENIED', why: 'operation not permitted by the operating system' },
  EROFS: { code: 'PERMISSION_DENIED', why: 'the file system is read-only' },
  ENOENT: { code: 'INVALID_PARAMETER', why: 'no such file or folder' },
  ENOTDIR: { code: 'INVALID_PARAMETER', why: 'a part of the path is not a folder' },
  EISDIR: { code: 'INVALID_PARAMETER', why: 'it is a folder' },
  ENAMETOOLONG: { code: 'INVALID_PARAMETER', why: 'the path is too long' },
  ELOOP: { code: 'PERMISSION_DENIED', why: 'the path is a symbolic link, which is not followed here' },
  EEXIST: { code: 'INVALID_PARAMETER', why: 'something else already exists there' },
};

export function errnoOf(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

/** Turns an fs failure into a ToolError naming the file and the action; a ToolError passes through. */
export function fileError(err: unknown, action: string, file: string): ToolError {
  if (err instanceof ToolError) return err;
  const known = BY_ERRNO[errnoOf(err) ?? ''];
  if (known) return new ToolError(known.code, `cannot ${action} ${file}: ${known.why}`);
  return new ToolError('INTERNAL', `cannot ${action} ${file}: ${(err as Error)?.message ?? String(err)}`);
}
