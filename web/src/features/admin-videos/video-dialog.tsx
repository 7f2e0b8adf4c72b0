import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { Button } from '../../components/ui/button.tsx';
import {
  CheckboxField,
  FileInput,
  Input,
  InputField,
  Label,
  moneyInput,
  Select,
  TextareaField,
  textBinder,
} from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { api, errorMessage } from '../../lib/api.ts';
import { uploadImage } from '../admin-uploads/image-picker.tsx';
import { uploadFile } from '../admin-uploads/upload.ts';
import { Progress } from '../../components/ui/progress.tsx';
import { ShowcaseOptions } from './showcase-options.tsx';
import { splitTags, titleFromFileName, whole, type AdminVideo, type Showcase } from './shared.ts';
import { useAdminMutation } from '../admin-shell/admin-mutation.ts';
import { FormSubmit } from '../admin-shell/form-submit.tsx';

/** The Add Video / Edit Video dialog's form, with the file and preview uploads. */
export function VideoForm({
  video,
  showcases,
  onDone,
}: {
  video?: AdminVideo;
  showcases: Showcase[];
  onDone: () => Promise<unknown>;
}) {
  const [fields, setFields] = useState({
    title: video?.title ?? '',
    priceCents: String(video?.priceCents ?? ''),
    description: video?.description ?? '',
    tags: video?.tags.join(', ') ?? '',
    showcaseId: video?.showcaseId ?? 'none',
    awsKey: video?.awsKey ?? '',
    previewUrl: video?.previewUrl ?? '',
    passwordProtected: video?.passwordProtected ?? false,
    published: video?.published ?? true,
    password: '',
  });
  const [progress, setProgress] = useState<{ label: string; fraction: number } | null>(null);
  const upload = useRef<AbortController | null>(null);
  // Closing the dialog stops an upload in progress; nothing was created, so nothing is left behind.
  useEffect(() => () => upload.current?.abort(), []);
  const set = (change: Partial<typeof fields>) => setFields((current) => ({ ...current, ...change }));
  const bind = textBinder(fields, set);

  // A preview picture goes through process-image like portfolio photos (upright, no location data,
  // every width made) and is used as its /api/photos/ URL once ready; the video file goes up as it is.
  const sendFile = async (file: File, field: 'awsKey' | 'previewUrl') => {
    upload.current = new AbortController();
    const showProgress = (fraction: number) =>
      setProgress({
        label: fraction < 1 || field === 'awsKey' ? `Uploading ${file.name}` : `Processing ${file.name}`,
        fraction,
      });
    showProgress(0);
    try {
      const key =
        field === 'awsKey'
          ? await uploadFile(file, showProgress, upload.current.signal)
          : await uploadImage(file, 'poster', showProgress, upload.current.signal);
      setFields((current) => ({
        ...current,
        [field]: key,
        // A new video's title starts as its file's name; the owner can change it.
        ...(field === 'awsKey' && !current.title.trim() && { title: titleFromFileName(file.name) }),
      }));
    } catch (error) {
      if ((error as Error).name !== 'AbortError')
        toast({
          title: 'Upload failed',
          description: errorMessage(error, 'The upload did not finish.'),
          variant: 'destructive',
        });
    } finally {
      setProgress(null);
      upload.current = null;
    }
  };
  const pickFile = (event: ChangeEvent<HTMLInputElement>, field: 'awsKey' | 'previewUrl') => {
    const file = event.target.files?.[0];
    if (file) void sendFile(file, field);
  };

  const save = useAdminMutation({
    mutationFn: () => {
      const body = {
        title: fields.title.trim(),
        description: fields.description.trim(),
        tags: splitTags(fields.tags),
        showcaseId: fields.showcaseId === 'none' ? null : fields.showcaseId,
        priceCents: whole(fields.priceCents),
        previewUrl: fields.previewUrl.trim() || null,
        passwordProtected: fields.passwordProtected,
        published: fields.published,
        password: fields.password || null,
      };
      return video
        ? api.put(`/api/admin/videos/${video.id}`, body)
        : api.post('/api/admin/videos', { ...body, awsKey: fields.awsKey.trim() });
    },
    success: video ? 'Video updated successfully' : 'Video created successfully',
    onSuccess: async () => {
      await onDone();
    },
    failure: video ? 'Failed to update video' : 'Failed to create video',
  });
  const ready =
    fields.title.trim() && fields.description.trim() && (video || fields.awsKey.trim()) && !progress;

  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField id="video-title" label="Title" required {...bind('title')} />
        <InputField
          id="video-price"
          label="Price in cents"
          placeholder="0 for free"
          {...moneyInput('cents')}
          {...bind('priceCents')}
        />
      </div>
      <TextareaField id="video-description" label="Description" required rows={3} {...bind('description')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField id="video-tags" label="Tags (comma-separated)" {...bind('tags')} />
        <div>
          <Label htmlFor="video-showcase">Showcase</Label>
          <Select
            id="video-showcase"
            value={fields.showcaseId}
            onChange={(event) => set({ showcaseId: event.target.value })}
          >
            <ShowcaseOptions showcases={showcases} />
          </Select>
        </div>
      </div>
      {!video && (
        <div>
          <Label htmlFor="video-key">AWS key (storage path)</Label>
          <Input id="video-key" placeholder="videos/..." {...bind('awsKey')} />
          <Label htmlFor="video-file" className="mt-2 text-xs text-zinc-400">
            …or upload the video file
          </Label>
          <FileInput id="video-file" accept="video/*" onChange={(event) => pickFile(event, 'awsKey')} />
        </div>
      )}
      <div>
        <Label htmlFor="video-preview">Preview image URL (optional)</Label>
        <Input id="video-preview" {...bind('previewUrl')} />
        <FileInput
          aria-label="Upload a preview image"
          accept="image/jpeg,image/png,image/webp,.jpg,.jpeg,.png,.webp"
          className="mt-2"
          onChange={(event) => pickFile(event, 'previewUrl')}
        />
        <p className="mt-1 text-xs text-zinc-400">JPEG, PNG or WebP up to 50 MB; location data is removed.</p>
      </div>
      {progress && (
        <div className="space-y-2">
          <Progress fraction={progress.fraction} label={progress.label} />
          <Button size="sm" variant="secondary" onClick={() => upload.current?.abort()}>
            Cancel upload
          </Button>
        </div>
      )}
      <CheckboxField
        className="text-sm text-zinc-200"
        checked={fields.passwordProtected}
        onCheckedChange={(passwordProtected) => set({ passwordProtected })}
      >
        Password Protected
      </CheckboxField>
      {fields.passwordProtected && (
        <InputField
          id="video-password"
          label="Password"
          type="text"
          autoComplete="off"
          placeholder={video?.passwordProtected ? 'Leave empty to keep the current password' : ''}
          {...bind('password')}
        />
      )}
      <CheckboxField
        className="text-sm text-zinc-200"
        checked={fields.published}
        onCheckedChange={(published) => set({ published })}
      >
        Shown on the site (untick to keep it hidden)
      </CheckboxField>
      <FormSubmit disabled={!ready} pending={save.isPending}>
        Save Video
      </FormSubmit>
    </form>
  );
}
