import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';

export interface Video {
  id: string;
  title: string;
  description: string;
  tags: string[];
  showcaseId: string | null;
  priceCents: number;
  previewUrl: string | null;
  passwordProtected: boolean;
  createdAt: string;
}

export interface Showcase {
  id: string;
  name: string;
  description: string;
  orderPriority: number;
}

export const useVideos = () =>
  useQuery({ queryKey: ['/api/videos'], queryFn: () => api.get<Video[]>('/api/videos') });
export const useShowcases = () =>
  useQuery({ queryKey: ['/api/showcases'], queryFn: () => api.get<Showcase[]>('/api/showcases') });
export const useVideo = (id: string) =>
  useQuery({
    queryKey: ['/api/videos', id],
    queryFn: () => api.get<Video>(`/api/videos/${encodeURIComponent(id)}`),
  });

/** SPEC.md section 3: a preview under /api/ is used as is; anything else is a storage key for the preview route. */
export function previewSrc(previewUrl: string | null): string | undefined {
  if (!previewUrl) return undefined;
  return previewUrl.startsWith('/api/') ? previewUrl : `/api/video-preview/${encodeURIComponent(previewUrl)}`;
}

/** Where the purchase flow keeps the chosen video (and a protected video's token) across the payment tab. */
export const purchaseStorage = {
  save(videoId: string, token?: string) {
    sessionStorage.setItem('purchaseVideoId', videoId);
    if (token) sessionStorage.setItem(`videoToken:${videoId}`, token);
  },
  token: (videoId: string) => sessionStorage.getItem(`videoToken:${videoId}`) ?? undefined,
  videoId: () => sessionStorage.getItem('purchaseVideoId') ?? undefined,
};
